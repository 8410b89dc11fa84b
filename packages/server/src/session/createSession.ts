import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { geometryBytesWithin, ModelUnreadableError, type ArBudget, type ConversionResult, type DoorQuery } from '@arsession/convert';
import type { ConvertedModel } from '../jobs/ConversionJobs.js';
import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { authenticate } from '../auth/authenticate.js';
import { ApiError } from '../errors/ApiError.js';
import { clientKey } from '../admission/UploadGate.js';
import { contentDisposition } from '../files/downloadName.js';
import { refuseUnknownFields } from '../form/fieldValues.js';
import { readConversion } from '../form/readConversion.js';
import { readModelUploads } from '../form/readModelUploads.js';
import { readMultipartForm, type UploadedFile } from '../form/readMultipartForm.js';
import type { PlacementMethod } from '../placement/PlacementMethod.js';
import type { Account, SavedModelInput } from '../store/SessionStore.js';
import type { ModelFrame } from '../records/AssetInfo.js';
import { newSessionId } from './newSessionId.js';
import { quickLookOf } from '../placement/quickLookOf.js';
import { plausibilityWarnings } from '../placement/plausibilityWarnings.js';
import type { StoredPlacement } from '../records/Placement.js';
import { SessionStaging } from './SessionStaging.js';
import { modelsToSave } from './modelsToSave.js';
import { withDoorHints } from './doorHints.js';
import { savedModelUpload } from './savedModelUpload.js';
import { ModelFiles } from './ModelFiles.js';
import { deliverModel, type DeliveredModel, type SessionModel } from './deliverModel.js';
import { budgetShares, type ShareInput } from './budgetShares.js';
import { fieldNames } from '../form/FormField.js';
import { SESSION_FORM } from './sessionForm.js';
import { estimateElements } from './estimateElements.js';
import { placementPoint } from '../placement/placementPoint.js';
import { DoorNotFoundError } from '@arsession/geometry';
import { arBudgetOf } from '../config/ServerConfig.js';
import { inSpan } from '../tracing/spans.js';
import type { SessionResponse } from '../records/SessionResponse.js';

export type { SessionResponse } from '../records/SessionResponse.js';

/** `<scheme>://session/<id>`. */
export function deeplinkOf(scheme: string, sessionId: string): string {
  return `${scheme}://session/${sessionId}`;
}

/**
 * One session request from arrival to 201, in three steps: read the request (key, admission, the
 * form streamed to disk and hashed, every field checked), convert the models (each read, placed
 * and converted off the event loop, or linked from the conversion cache, into a staged file), then
 * build the session record and commit it: the staged files moved into the sessions directory and
 * its rows written, together, by the store thread. So a session that answered 201 always has its
 * files, nothing is served before its row exists, and a failure leaves nothing behind (the
 * {@link SessionStaging} holds everything until then).
 */
export async function createSession<I>(ctx: ServerContext, method: PlacementMethod<I>, req: Request, res: Response): Promise<void> {
  // The key first: a request that will be refused anyway must not take a place from those that won't.
  const account = await authenticate(ctx.sessions, req, method.requiresKey);
  await countSession(ctx, account, req);
  // While its body arrives a request holds only one of its client's upload places; a conversion
  // slot is taken once the body is in, so clients sending slowly cost only themselves.
  const received = ctx.uploads.enter(clientKey(req.ip));
  let leave = () => {};
  const sessionId = newSessionId();
  const staging = new SessionStaging(ctx.paths.uploads, sessionId);
  try {
    const scope = { sessionId, account, staging };
    const traced = { 'arsession.session': sessionId, 'arsession.method': method.path };
    const request = await inSpan('arsession.read_request', traced, () => readRequest(ctx, method, req, res, scope));
    received();
    leave = ctx.admission.admit();
    const models = await convertModels(ctx, method, request, staging);
    const { code, expiresAt } = await inSpan('arsession.store', traced, () => commitSession(ctx, method, request, models, scope));
    const body: SessionResponse = {
      deeplink: deeplinkOf(ctx.config.deeplinkScheme, sessionId),
      expires_at: new Date(expiresAt).toISOString(),
      onetime_code: code,
    };
    (res.locals.log as ServerContext['log']).info(
      { session: sessionId, method: method.path, models: request.uploads.length, account: account?.name },
      'session created',
    );
    // The body carries the one-time code: no cache on the way may keep it.
    res.status(201).location(`/api/vision/v1/session/${sessionId}/`).set('Cache-Control', 'no-store').json(body);
    ctx.metrics.sessionCreated(method.path);
  } finally {
    received();
    leave();
    await staging.close();
  }
}

/**
 * Counts a session asked for against its key's hourly allowance, or without a key against its
 * client's (stricter: anyone can be anonymous); over it, 429 `too_many_sessions` with Retry-After,
 * before a byte of the body is read. Every storage quota starts here: disk fills one session at a time.
 */
async function countSession(ctx: ServerContext, account: Account | undefined, req: Request): Promise<void> {
  const { perClient, perKey } = ctx.sessionThrottle;
  const wait = account ? await perKey.hit(account.name) : await perClient.hit(clientKey(req.ip));
  if (wait === 0) return;
  const [limit, who, setting] = account
    ? [ctx.config.sessionsPerKeyPerHour, `the key's account ${account.name}`, 'ARSESSION_SESSIONS_PER_KEY_PER_HOUR']
    : [ctx.config.sessionsPerClientPerHour, 'a client without a key', 'ARSESSION_SESSIONS_PER_CLIENT_PER_HOUR'];
  throw new ApiError(
    429,
    'too_many_sessions',
    `${who} may make ${limit} sessions an hour (${setting}); retry in ${wait} s`,
    [{ field: account ? 'X-API-Key' : 'model_file', message: `over ${limit} sessions an hour` }],
    { 'Retry-After': String(wait) },
  );
}

/** Who is asking, and where the request's files are held. */
interface RequestScope {
  sessionId: string;
  account: Account | undefined;
  staging: SessionStaging;
}

/** A request read and checked: its models and its placement input. */
interface ReadRequest<I> {
  uploads: UploadedFile[];
  input: I;
  /** The uploads its account will keep (none without a key): one per content not kept already. */
  saving: UploadedFile[];
}

/** Step 1: the form, streamed to disk, and every field judged before any model is converted. */
async function readRequest<I>(
  ctx: ServerContext,
  method: PlacementMethod<I>,
  req: Request,
  res: Response,
  scope: RequestScope,
): Promise<ReadRequest<I>> {
  // A keyed request's models are saved to its account: written straight there, they need no move.
  const fields = fieldNames([...SESSION_FORM, ...method.form]);
  const modelFields = new Set(fieldNames(SESSION_FORM).files);
  const form = await readMultipartForm(req, res, {
    dirFor: (field) => (scope.account && modelFields.has(field) ? ctx.paths.models : ctx.paths.uploads),
    prefix: scope.sessionId,
    created: scope.staging.uploads,
    maxFileBytes: ctx.config.maxFileBytes,
    maxFiles: ctx.config.maxFiles,
    fileFields: fields.files,
    minBytesPerSecond: ctx.config.minBodyBytesPerSecond,
  });
  refuseUnknownFields(form, new Set(fields.text), ['conversion.'], fields.files);
  readConversion(form);
  const uploads = form.fields.has('model_id')
    ? [await savedModelUpload(ctx, form, scope.account, scope.staging)]
    : readModelUploads(form, ctx.config.maxFiles);
  const input = method.read(form, ctx.config.maxCoordinateMetres);
  return { uploads, input, saving: scope.account ? await modelsToSave(ctx, scope.account, uploads) : [] };
}

/** One model of the session: its conversion, and the staged files it wrote (or the cache placed). */
/** Step 2: every model converted in upload order; the first one also looks for the door a by_scan asks for. */
async function convertModels<I>(
  ctx: ServerContext,
  method: PlacementMethod<I>,
  request: ReadRequest<I>,
  staging: SessionStaging,
): Promise<SessionModel[]> {
  const models: SessionModel[] = [];
  // What a device loads together is held to the budget: a session's models share it.
  const budget = arBudgetOf(ctx.config);
  const shares = budget ? budgetShares(budget, await shareInputs(request.uploads)) : request.uploads.map(() => false as const);
  for (const [order, upload] of request.uploads.entries()) {
    const share = shares[order]!;
    const cacheKey = share && budget && share.triangles !== budget.triangles ? `${upload.sha256}.${shareKey(share)}` : upload.sha256;
    const files = new ModelFiles(staging, order);
    const detectDoor = order === 0 ? method.doorQuery?.(request.input) : undefined;
    // The same bytes converted before give the same files: they are placed from the cache, unless
    // a door is asked for (detection depends on the request, so it always runs on the model itself).
    const traced = { 'arsession.model.order': order, 'arsession.model.name': upload.name, 'arsession.model.bytes': upload.bytes };
    // The same file twice in one request is converted once: its files are copied from the first.
    const twin = models.find((m) => m.upload.sha256 === upload.sha256 && m.upload.bytes === upload.bytes);
    if (twin && !detectDoor) {
      await files.copyFrom(twin.files);
      const { door: _door, ...result } = twin.result;
      models.push({ upload, result, files, cacheKey, converted: false });
      continue;
    }
    const model = await inSpan('arsession.model', traced, async (span) => {
      const cached = detectDoor ? undefined : await ctx.conversionCache.reuse(cacheKey, files.cachePlaces());
      const lookup = detectDoor ? 'skipped' : cached ? 'hit' : 'miss';
      if (lookup !== 'skipped') ctx.metrics.cacheLookup(lookup);
      span.setAttribute('arsession.cache', lookup);
      const result =
        cached ??
        (await convertUpload(ctx, {
          sessionId: staging.sessionId,
          order,
          upload,
          ...files.paths(),
          budget: share,
          detectDoor,
        }).catch((err: unknown) => {
          throw err instanceof DoorNotFoundError && detectDoor ? withDoorHints(err, detectDoor, upload, request.uploads.length) : err;
        }));
      // A model within the budget has no parts, a GLB no element records: nothing was written there.
      await files.settle(result);
      return { upload, result, files, cacheKey, converted: !cached };
    });
    models.push(model);
  }
  return models;
}

/** Step 3: the placement, the files and assets, the saved models; then the commit. */
async function commitSession<I>(
  ctx: ServerContext,
  method: PlacementMethod<I>,
  request: ReadRequest<I>,
  models: SessionModel[],
  scope: RequestScope,
): Promise<{ code: string; expiresAt: number }> {
  const results = models.map((m) => m.result);
  const placed = method.place(request.input, { primary: results[0]!, all: results });
  const quickLook = quickLookOf(placed);
  const placement: StoredPlacement = { ...placed, quick_look: quickLook, warnings: plausibilityWarnings(placed, results[0]!.bounds) };
  const extras = method.files?.(request.input) ?? [];
  const delivered: DeliveredModel[] = [];
  for (const [order, model] of models.entries()) {
    // The placement is stated in the first model's frame; each model's own is moved by its offset.
    const placedAt = placementPoint(placed).map((v, k) => v + results[0]!.offset[k]! - model.result.offset[k]!);
    delivered.push(await deliverModel(ctx, model, order, { staging: scope.staging, quickLook, placedAt }));
  }
  const files = delivered.flatMap((d) => d.files);
  const assets = delivered.map((d) => d.asset);
  for (const extra of extras) {
    scope.staging.adopt(extra.upload.path, extra.name);
    files.push({
      name: extra.name,
      contentType: extra.contentType,
      bytes: extra.upload.bytes,
      sha256: extra.upload.sha256,
      downloadName: contentDisposition(extra.upload.name),
    });
  }
  const saving = models.filter((m) => request.saving.includes(m.upload));
  const saved = saving.map((m) => savedModel(ctx, m.upload, m.result));
  for (const [i, m] of saving.entries()) scope.staging.keep(m.upload.path, saved[i]!.storedAs);
  const now = Date.now();
  const expiresAt = now + ctx.config.sessionTtlSeconds * 1000;
  const modelFrame: ModelFrame = { up_axis: 'y', handedness: 'right', units: 'm', offset: results[0]!.offset };
  const record = {
    id: scope.sessionId,
    method: method.method,
    createdAt: now,
    expiresAt,
    accountId: scope.account?.id ?? null,
    placement,
    modelFrame,
    files,
    assets,
  };
  const code = await scope.staging.commit(ctx.objects, (files) => ctx.sessions.commit({ record, saved, files }));
  // Kept from the committed session's files (a link, or a copy inside the bucket), so that the
  // next upload of the same bytes is placed, not converted.
  for (const m of models.filter((m) => m.converted)) {
    const { door: _door, usdz: _usdz, glb: _glb, ...reusable } = m.result;
    await ctx.conversionCache.keep(m.cacheKey, scope.sessionId, m.files.cacheNames(), reusable);
  }
  return { code, expiresAt };
}

/** Reads, checks, (detects) and converts one uploaded model into `usdzPath` and `glbPath` on a conversion worker. */
async function convertUpload(
  ctx: ServerContext,
  {
    sessionId,
    order,
    upload,
    usdzPath,
    glbPath,
    partsPath,
    elementsPath,
    budget,
    detectDoor,
  }: {
    sessionId: string;
    order: number;
    upload: UploadedFile;
    usdzPath: string;
    glbPath: string;
    partsPath: string;
    elementsPath: string;
    /** This model's share of the session's AR budget; `false`: none. */
    budget: ArBudget | false;
    detectDoor: DoorQuery | undefined;
  },
): Promise<ConvertedModel> {
  const named = { field: upload.field, fileName: upload.name };
  // The worker recognises the format (415 for anything else) as part of reading the model.
  const converted = await ctx.admission.withWorker(() =>
    ctx.jobs.run({
      sessionId,
      order,
      upload: { path: upload.path, name: upload.name, field: upload.field },
      usdzPath,
      glbPath,
      partsPath,
      elementsPath,
      timeoutMs: ctx.config.conversionTimeoutSeconds * 1000,
      budget,
      maxGeometryBytes: geometryBytesWithin(ctx.config.conversionMemoryBytes),
      maxUnpackedBytes: ctx.config.maxFileBytes,
      ...(detectDoor && { detectDoor }),
    }),
  );
  if (converted.stats.triangles === 0)
    throw new ModelUnreadableError(`${upload.name} has no geometry to show or place (0 triangles)`, named);
  return converted;
}

/** What each upload's budget share is made from: its bytes, and its elements when there are several to share with. */
async function shareInputs(uploads: readonly UploadedFile[]): Promise<readonly ShareInput[]> {
  if (uploads.length < 2) return uploads;
  const inputs: ShareInput[] = [];
  // One after another: each is a streamed read of its file, and the API node has requests to answer.
  for (const u of uploads) inputs.push({ bytes: u.bytes, elements: await estimateElements(u.path) });
  return inputs;
}

/** A model upload kept for the account, where it was written as it arrived. */
function savedModel(ctx: ServerContext, upload: UploadedFile, result: ConversionResult): SavedModelInput {
  return {
    id: randomUUID(),
    sourceName: upload.name,
    format: result.format,
    bytes: upload.bytes,
    sha256: upload.sha256,
    storedAs: relative(ctx.paths.models, upload.path),
  };
}

/** A budget share as the conversion cache keys it: the same bytes under another share are another conversion. */
function shareKey(share: ArBudget): string {
  return `share-${share.triangles}-${share.meshPrims}-${share.packageBytes}`;
}
