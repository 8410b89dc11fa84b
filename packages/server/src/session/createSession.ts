import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { convertModel, ModelUnreadableError, type ConversionResult, type DoorQuery } from '@arsession/convert';
import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { authenticate } from '../auth/authenticate.js';
import { contentDisposition, deliveredName } from '../files/downloadName.js';
import { hashFile } from '../files/hashFile.js';
import { refuseUnknownFields } from '../form/fieldValues.js';
import { readConversion } from '../form/readConversion.js';
import { readModelUploads } from '../form/readModelUploads.js';
import { readMultipartForm, type UploadedFile } from '../form/readMultipartForm.js';
import type { PlacementMethod } from '../placement/PlacementMethod.js';
import { round } from '../placement/poseJson.js';
import { compileReality } from '../reality/compileReality.js';
import { type SavedModelInput, type SessionFile, type StoredAsset } from '../store/sessions.js';

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
 * conversion cache) straight into the session's directory, and only then the database row — so a
 * session that answered 201 always has its files, nothing is served before its row exists, and a
 * failure leaves nothing behind.
 */
export async function createSession<I>(ctx: ServerContext, method: PlacementMethod<I>, req: Request, res: Response): Promise<void> {
  // The key first: a request that will be refused anyway must not take a slot from those that won't.
  const account = authenticate(ctx.db, req, method.requiresKey);
  const leave = ctx.admission.admit();
  const sessionId = randomBytes(16).toString('base64url');
  // The session's directory is filled in place: nothing serves a file before the database row
  // exists, the row is written last, and a failure (or, after a kill, start-up) removes the directory.
  const sessionDir = join(ctx.paths.sessions, sessionId);
  const uploaded: string[] = [];
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

    await mkdir(sessionDir);
    const results: ConvertedModel[] = [];
    for (const [order, upload] of uploads.entries()) {
      results.push(await convertUpload(ctx, upload, join(sessionDir, `${order}.usdz`), order === 0 ? method.doorQuery?.(input) : undefined));
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
      const reality = await makeReality(ctx, sessionDir, order, upload.name);
      if (reality) files.push(reality);
      assets.push({
        order,
        sourceName: upload.name,
        info: {
          format: result.format,
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
    for (const extra of method.files?.(input) ?? []) {
      await rename(extra.upload.path, join(sessionDir, extra.name));
      kept.add(extra.upload.path);
      files.push({
        name: extra.name, contentType: extra.contentType, bytes: extra.upload.bytes, sha256: extra.upload.sha256,
        downloadName: contentDisposition(extra.upload.name),
      });
    }
    const saved = account ? uploads.map((upload, order) => savedModel(ctx, upload, results[order]!)) : [];

    const now = Date.now();
    const expiresAt = now + ctx.config.sessionTtlSeconds * 1000;
    const code = await ctx.sessionWriter.insert({
      id: sessionId, method: method.method, createdAt: now, expiresAt, accountId: account?.id ?? null, placement,
      modelFrame: { up_axis: 'y', handedness: 'right', units: 'm', offset: results[0]!.offset }, files, assets,
    }, saved);
    finished = true;
    if (account) for (const upload of uploads) kept.add(upload.path);
    const body: SessionResponse = { deeplink: deeplinkOf(ctx.config.deeplinkScheme, sessionId), expires_at: new Date(expiresAt).toISOString(), onetime_code: code };
    (res.locals.log as ServerContext['log']).info({ session: sessionId, method: method.path, models: uploads.length, account: account?.name }, 'session created');
    res.status(201).location(`/api/vision/v1/session/${sessionId}/`).json(body);
  } finally {
    leave();
    if (!finished) await rm(sessionDir, { recursive: true, force: true });
    for (const path of uploaded) if (!finished || !kept.has(path)) await unlink(path).catch(() => undefined);
  }
}

/** One uploaded model, converted (or taken from the cache) into the session's USDZ, with its size and hash. */
type ConvertedModel = ConversionResult & Pick<Required<ConversionResult>, 'usdzFileBytes' | 'usdzFileSha256'>;

/**
 * Reads, checks, (detects) and converts one uploaded model into `usdzPath`, on a pool worker —
 * unless the same bytes were converted before and no door is asked for (detection depends on the
 * request, so it always runs on the model itself): then the earlier USDZ is linked in.
 */
async function convertUpload(ctx: ServerContext, upload: UploadedFile, usdzPath: string, detectDoor: DoorQuery | undefined): Promise<ConvertedModel> {
  const named = { field: upload.field, fileName: upload.name };
  const cached = detectDoor ? undefined : await ctx.conversionCache.reuse(upload.sha256, usdzPath);
  if (cached) return cached;
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

async function describeFile(dir: string, name: string, contentType: string, downloadName: string): Promise<SessionFile> {
  const path = join(dir, name);
  return { name, contentType, bytes: (await stat(path)).size, sha256: await hashFile(path), downloadName: contentDisposition(downloadName) };
}

/** The Reality file of one asset, when an external compiler is configured and succeeds. */
async function makeReality(ctx: ServerContext, dir: string, order: number, sourceName: string): Promise<SessionFile | undefined> {
  const command = ctx.config.realityCompiler;
  if (!command) return undefined;
  const tmp = join(dir, `${order}.reality.partial`);
  const done = await compileReality(command, join(dir, `${order}.usdz`), tmp, { timeoutMs: ctx.config.conversionTimeoutSeconds * 1000 });
  const size = done.ok ? await stat(tmp).then((s) => s.size, () => 0) : 0;
  if (!done.ok || size === 0) {
    ctx.log.warn({ sourceName, problem: done.ok ? 'empty output' : done.message }, 'reality compiler failed; the asset is offered as USDZ only');
    await rm(tmp, { force: true });
    return undefined;
  }
  await rename(tmp, join(dir, `${order}.reality`));
  return describeFile(dir, `${order}.reality`, 'model/vnd.reality', deliveredName(sourceName, 'reality'));
}

/** A model upload kept for the account, where it was written as it arrived. */
function savedModel(ctx: ServerContext, upload: UploadedFile, result: ConversionResult): SavedModelInput {
  return {
    id: randomUUID(), sourceName: upload.name, format: result.format, bytes: upload.bytes, sha256: upload.sha256,
    storedAs: relative(ctx.paths.models, upload.path),
  };
}
