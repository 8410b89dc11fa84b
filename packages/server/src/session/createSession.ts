import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
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
import { insertSession, type SavedModelInput, type SessionFile, type StoredAsset } from '../store/sessions.js';

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
 * One session request from arrival to 201: key, admission, form, fields, then every model read,
 * placed and converted (off the event loop), files moved into place, and only then the database
 * row — so a session that answered 201 always has its files, and a failure leaves nothing behind.
 */
export async function createSession<I>(ctx: ServerContext, method: PlacementMethod<I>, req: Request, res: Response): Promise<void> {
  // The key first: a request that will be refused anyway must not take a slot from those that won't.
  const account = authenticate(ctx.db, req, method.requiresKey);
  const leave = ctx.admission.admit();
  const sessionId = randomBytes(16).toString('base64url');
  const staging = join(ctx.paths.sessions, `.staging-${sessionId}`);
  let uploadDir: string | undefined;
  try {
    uploadDir = await mkdtemp(join(ctx.paths.uploads, 'req-'));
    const form = await readMultipartForm(req, res, uploadDir, {
      maxFileBytes: ctx.config.maxFileBytes,
      maxFiles: ctx.config.maxFiles,
      fileFields: ['model_file', 'model_files', ...method.fileFields],
    });
    refuseUnknownFields(form, new Set([...method.fields, 'conversion']), ['conversion.']);
    readConversion(form);
    const uploads = readModelUploads(form, ctx.config.maxFiles);
    const input = method.read(form);

    await mkdir(staging);
    const results: ConversionResult[] = [];
    for (const [order, upload] of uploads.entries()) {
      results.push(await convertUpload(ctx, upload, join(staging, `${order}.usdz`), order === 0 ? method.doorQuery?.(input) : undefined));
    }
    const placement = method.place(input, { primary: results[0]!, all: results });

    const files: SessionFile[] = [];
    const assets: StoredAsset[] = [];
    for (const [order, result] of results.entries()) {
      const upload = uploads[order]!;
      const usdz: SessionFile = await describeFile(staging, `${order}.usdz`, 'model/vnd.usdz+zip', deliveredName(upload.name, 'usdz'));
      files.push(usdz);
      const reality = await makeReality(ctx, staging, order, upload.name);
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
      await rename(extra.upload.path, join(staging, extra.name));
      files.push(await describeFile(staging, extra.name, extra.contentType, extra.upload.name));
    }
    const saved = account ? await saveModels(ctx, account.id, uploads, results) : [];

    const now = Date.now();
    const expiresAt = now + ctx.config.sessionTtlSeconds * 1000;
    const finalDir = join(ctx.paths.sessions, sessionId);
    await rename(staging, finalDir);
    let code: string;
    try {
      code = insertSession(ctx.db, {
        id: sessionId, method: method.method, createdAt: now, expiresAt, accountId: account?.id ?? null, placement,
        modelFrame: { up_axis: 'y', handedness: 'right', units: 'm', offset: results[0]!.offset }, files, assets,
      }, saved);
    } catch (err) {
      await rm(finalDir, { recursive: true, force: true });
      for (const m of saved) await rm(join(ctx.paths.models, m.storedAs), { force: true });
      throw err;
    }
    const body: SessionResponse = { deeplink: deeplinkOf(ctx.config.deeplinkScheme, sessionId), expires_at: new Date(expiresAt).toISOString(), onetime_code: code };
    (res.locals.log as ServerContext['log']).info({ session: sessionId, method: method.path, models: uploads.length, account: account?.name }, 'session created');
    res.status(201).location(`/api/vision/v1/session/${sessionId}/`).json(body);
  } finally {
    leave();
    await rm(staging, { recursive: true, force: true });
    if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
  }
}

/** Reads, checks, (detects) and converts one uploaded model into `usdzPath`, on a pool worker. */
async function convertUpload(ctx: ServerContext, upload: UploadedFile, usdzPath: string, detectDoor: DoorQuery | undefined): Promise<ConversionResult> {
  const named = { field: upload.field, fileName: upload.name };
  // The worker recognises the format (415 for anything else) as part of reading the model.
  const bytes = new Uint8Array(await readFile(upload.path));
  const result = await ctx.admission.withWorker(() => convertModel(bytes, {
    ...named,
    usdzPath,
    timeoutMs: ctx.config.conversionTimeoutSeconds * 1000,
    ...(detectDoor && { detectDoor }),
  }));
  if (result.stats.triangles === 0) throw new ModelUnreadableError(`${upload.name} has no geometry to show or place (0 triangles)`, named);
  return result;
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

/** Moves the uploaded sources into the account's saved models. */
async function saveModels(ctx: ServerContext, accountId: number, uploads: readonly UploadedFile[], results: readonly ConversionResult[]): Promise<SavedModelInput[]> {
  const dir = join(ctx.paths.models, String(accountId));
  await mkdir(dir, { recursive: true });
  const saved: SavedModelInput[] = [];
  for (const [i, upload] of uploads.entries()) {
    const id = randomUUID();
    const sha256 = await hashFile(upload.path);
    await rename(upload.path, join(dir, id));
    saved.push({ id, sourceName: upload.name, format: results[i]!.format, bytes: upload.bytes, sha256, storedAs: `${accountId}/${id}` });
  }
  return saved;
}

