import { randomUUID } from 'node:crypto';
import { readFile, rm, stat, unlink } from 'node:fs/promises';
import { relative } from 'node:path';
import { convertModel, ModelUnreadableError, type ConversionResult, type DoorQuery } from '@arsession/convert';
import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { authenticate } from '../auth/authenticate.js';
import type { CacheHit } from '../cache/ConversionCache.js';
import { contentDisposition, deliveredName } from '../files/downloadName.js';
import { hashFile } from '../files/hashFile.js';
import { sessionFilePath } from '../files/sessionFiles.js';
import { refuseUnknownFields } from '../form/fieldValues.js';
import { readConversion } from '../form/readConversion.js';
import { readModelUploads } from '../form/readModelUploads.js';
import { readMultipartForm, type UploadedFile } from '../form/readMultipartForm.js';
import type { PlacementMethod } from '../placement/PlacementMethod.js';
import { round } from '../placement/poseJson.js';
import { compileReality } from '../reality/compileReality.js';
import type { StagedFile } from '../store/commitSessions.js';
import { type SavedModelInput, type SessionFile, type StoredAsset } from '../store/sessions.js';
import { newSessionId } from './newSessionId.js';

/** The body of every 201 (interface-spec.md, SessionResponse). */
export interface SessionResponse {
  deeplink: string;
  expires_at: string;
  onetime_code: string;
}

/** `<scheme>://session/<id>`. */
export function deeplinkOf(scheme: string, sessionId: string): string {
  return `${scheme}://session/${sessionId}`;
}

/**
 * One session request from arrival to 201: key, admission, form (streamed to disk and hashed),
 * fields, then every model read, placed and converted off the event loop (or linked from the
 * conversion cache) into a staged file, and only then the session committed: the staged files
 * moved into the sessions directory and its row written, together, by the store thread. So a
 * session that answered 201 always has its files, nothing is served before its row exists, and a
 * failure leaves nothing behind.
 */
export async function createSession<I>(ctx: ServerContext, method: PlacementMethod<I>, req: Request, res: Response): Promise<void> {
  // The key first: a request that will be refused anyway must not take a slot from those that won't.
  const account = await authenticate(ctx.store, req, method.requiresKey);
  const leave = ctx.admission.admit();
  const sessionId = newSessionId();
  // Files made for the session wait in uploads/ (emptied on start) until the session is committed.
  const stagedPath = (name: string) => sessionFilePath(ctx.paths.uploads, sessionId, name);
  const uploaded: string[] = [];
  const staged: StagedFile[] = [];
  const hits: CacheHit[] = [];
  // Uploads that became part of the session or the account (the rest are deleted at the end).
  const kept = new Set<string>();
  let finished = false;
  try {
    // A keyed request's models are saved to its account: written straight there, they need no move.
    const modelFields = new Set(['model_file', 'model_files']);
    const form = await readMultipartForm(req, res, {
      dirFor: (field) => (account && modelFields.has(field) ? ctx.paths.models : ctx.paths.uploads),
      prefix: sessionId,
      created: uploaded,
      maxFileBytes: ctx.config.maxFileBytes,
      maxFiles: ctx.config.maxFiles,
      fileFields: [...modelFields, ...method.fileFields],
    });
    refuseUnknownFields(form, new Set([...method.fields, 'conversion']), ['conversion.']);
    readConversion(form);
    const uploads = readModelUploads(form, ctx.config.maxFiles);
    const input = method.read(form);

    const results: ConvertedModel[] = [];
    const usdzFiles: StagedFile[] = [];
    for (const [order, upload] of uploads.entries()) {
      const name = `${order}.usdz`;
      const detectDoor = order === 0 ? method.doorQuery?.(input) : undefined;
      // The same bytes converted before give the same USDZ: it is linked in, unless a door is
      // asked for (detection depends on the request, so it always runs on the model itself).
      const hit = detectDoor ? undefined : ctx.conversionCache.reuse(upload.sha256);
      if (hit) hits.push(hit);
      const usdz: StagedFile = hit ? { from: hit.path, name, link: true } : { from: stagedPath(name), name };
      usdzFiles.push(usdz);
      staged.push(usdz);
      results.push(hit ? hit.entry : await convertUpload(ctx, upload, usdz.from, detectDoor));
    }
    const placement = method.place(input, { primary: results[0]!, all: results });

    const files: SessionFile[] = [];
    const assets: StoredAsset[] = [];
    for (const [order, result] of results.entries()) {
      const upload = uploads[order]!;
      const usdz: SessionFile = {
        name: `${order}.usdz`, contentType: 'model/vnd.usdz+zip', bytes: result.usdzFileBytes, sha256: result.usdzFileSha256,
        downloadName: contentDisposition(deliveredName(upload.name, 'usdz')),
      };
      files.push(usdz);
      const reality = await makeReality(ctx, usdzFiles[order]!.from, stagedPath, staged, order, upload.name);
      if (reality) files.push(reality);
      assets.push({
        order,
        sourceName: upload.name,
        info: {
          format: result.format,
          usdz_delivery: result.delivery,
          preferred_format: reality ? 'reality' : 'usdz',
          usdz_file: usdz.name,
          reality_file: reality?.name ?? null,
          source_bytes: upload.bytes,
          usdz_bytes: usdz.bytes,
          usdz_sha256: usdz.sha256,
          triangles: result.stats.triangles,
          mesh_nodes: result.stats.meshNodes,
          draw_calls: result.stats.drawCalls,
          elements: result.stats.elements,
          bounds: { min: round(result.bounds.min), max: round(result.bounds.max) },
          offset: result.offset,
          warnings: result.warnings,
          ...(result.doorOpenings && { door_openings: result.doorOpenings.length }),
        },
      });
    }
    const extras = method.files?.(input) ?? [];
    for (const extra of extras) {
      staged.push({ from: extra.upload.path, name: extra.name });
      files.push({
        name: extra.name, contentType: extra.contentType, bytes: extra.upload.bytes, sha256: extra.upload.sha256,
        downloadName: contentDisposition(extra.upload.name),
      });
    }
    const saved = account ? uploads.map((upload, order) => savedModel(ctx, upload, results[order]!)) : [];

    const now = Date.now();
    const expiresAt = now + ctx.config.sessionTtlSeconds * 1000;
    const code = await ctx.store.commit({
      record: {
        id: sessionId, method: method.method, createdAt: now, expiresAt, accountId: account?.id ?? null, placement,
        modelFrame: { up_axis: 'y', handedness: 'right', units: 'm', offset: results[0]!.offset }, files, assets,
      },
      saved,
      files: staged,
    });
    finished = true;
    for (const extra of extras) kept.add(extra.upload.path);
    if (account) for (const upload of uploads) kept.add(upload.path);
    const body: SessionResponse = { deeplink: deeplinkOf(ctx.config.deeplinkScheme, sessionId), expires_at: new Date(expiresAt).toISOString(), onetime_code: code };
    (res.locals.log as ServerContext['log']).info({ session: sessionId, method: method.path, models: uploads.length, account: account?.name }, 'session created');
    res.status(201).location(`/api/vision/v1/session/${sessionId}/`).json(body);
  } finally {
    leave();
    for (const hit of hits) hit.release();
    // Committed files were moved into the session; the rest go (cache entries stay).
    if (!finished) for (const file of staged) if (!file.link) await unlink(file.from).catch(() => undefined);
    for (const path of uploaded) if (!finished || !kept.has(path)) await unlink(path).catch(() => undefined);
  }
}

/** One uploaded model, converted (or taken from the cache) into the session's USDZ, with its size and hash. */
type ConvertedModel = ConversionResult & Pick<Required<ConversionResult>, 'usdzFileBytes' | 'usdzFileSha256'>;

/**
 * Reads, checks, (detects) and converts one uploaded model into `usdzPath` on a pool worker, and
 * keeps the result in the conversion cache for the next upload of the same bytes.
 */
async function convertUpload(ctx: ServerContext, upload: UploadedFile, usdzPath: string, detectDoor: DoorQuery | undefined): Promise<ConvertedModel> {
  const named = { field: upload.field, fileName: upload.name };
  const bytes = new Uint8Array(await readFile(upload.path));
  // The worker recognises the format (415 for anything else) as part of reading the model.
  const result = await ctx.admission.withWorker(() => convertModel(bytes, {
    ...named,
    usdzPath,
    timeoutMs: ctx.config.conversionTimeoutSeconds * 1000,
    ...(detectDoor && { detectDoor }),
  }));
  if (result.stats.triangles === 0) throw new ModelUnreadableError(`${upload.name} has no geometry to show or place (0 triangles)`, named);
  // The worker hashed the USDZ as it wrote it.
  const converted = { ...result, usdzFileBytes: result.usdzFileBytes!, usdzFileSha256: result.usdzFileSha256! };
  const { door: _door, usdz: _usdz, glb: _glb, ...reusable } = converted;
  await ctx.conversionCache.keep(upload.sha256, usdzPath, reusable);
  return converted;
}

/**
 * The Reality file of one asset, when an external compiler is configured and succeeds: compiled
 * from the asset's USDZ (`usdzPath`) into a staged file of its own (added to `staged`).
 */
async function makeReality(ctx: ServerContext, usdzPath: string, stagedPath: (name: string) => string, staged: StagedFile[], order: number, sourceName: string): Promise<SessionFile | undefined> {
  const command = ctx.config.realityCompiler;
  if (!command) return undefined;
  const name = `${order}.reality`;
  const file: StagedFile = { from: stagedPath(name), name };
  // Staged before it exists, so that a failure anywhere below still removes what the compiler left.
  staged.push(file);
  const done = await compileReality(command, usdzPath, file.from, { timeoutMs: ctx.config.conversionTimeoutSeconds * 1000 });
  const size = done.ok ? await stat(file.from).then((s) => s.size, () => 0) : 0;
  if (!done.ok || size === 0) {
    ctx.log.warn({ sourceName, problem: done.ok ? 'empty output' : done.message }, 'reality compiler failed; the asset is offered as USDZ only');
    staged.splice(staged.indexOf(file), 1);
    await rm(file.from, { force: true });
    return undefined;
  }
  return { name, contentType: 'model/vnd.reality', bytes: size, sha256: await hashFile(file.from), downloadName: contentDisposition(deliveredName(sourceName, 'reality')) };
}

/** A model upload kept for the account, where it was written as it arrived. */
function savedModel(ctx: ServerContext, upload: UploadedFile, result: ConversionResult): SavedModelInput {
  return {
    id: randomUUID(), sourceName: upload.name, format: result.format, bytes: upload.bytes, sha256: upload.sha256,
    storedAs: relative(ctx.paths.models, upload.path),
  };
}
