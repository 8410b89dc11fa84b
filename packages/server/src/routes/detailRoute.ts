import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { deeplinkOf } from '../session/createSession.js';
import { placementOnWire } from '../records/Placement.js';
import type { SessionDetail } from '../records/SessionDetail.js';
import type { SessionRecord } from '../store/SessionStore.js';
import { liveSession } from './sessionLookup.js';
import { sessionLevels } from '../records/sessionLevels.js';
import { derivedFileOf, PREVIEW_FILE } from '../derived/derivedFiles.js';

/**
 * Base of absolute URLs: the configured public URL, else what the client called — through a
 * trusted proxy (ARSESSION_TRUST_PROXY) its X-Forwarded-Proto and X-Forwarded-Host, so links stay
 * https behind a TLS-terminating balancer; from anyone else, the connection's own.
 */
export function baseUrl(ctx: ServerContext, req: Request): string {
  return ctx.config.publicUrl ?? `${req.protocol}://${req.host || 'localhost'}`;
}

/** `GET /api/vision/v1/session/{id}/`: the detail record (contract.md). */
export function detailRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const session = await liveSession(ctx.sessions, String(req.params.id));
    res.set('Cache-Control', 'no-store').json(sessionDetail(ctx, req, session));
  };
}

/** A session's detail record, its URLs under the base the client called (or the configured public URL). */
export function sessionDetail(ctx: ServerContext, req: Request, session: SessionRecord): SessionDetail {
  const files = `${baseUrl(ctx, req)}/api/vision/v1/session/${session.id}/files/`;
  // One storey across the session's models (a federation's architecture, structure, services): one
  // level, for the parts and the storeys of each model alike (the parts' first).
  const partKeys = session.assets.map(
    (a) => a.info.parts?.items.map((p) => p.storey && { name: p.storey.name, elevation_m: p.storey.elevation_m }) ?? [],
  );
  const levels = sessionLevels(session.assets.map((a, i) => [...partKeys[i]!, ...(a.info.storeys ?? [])]));
  const storeyLevels = levels.map((l, i) => l.slice(partKeys[i]!.length));
  const detail: SessionDetail = {
    session_id: session.id,
    deeplink: deeplinkOf(ctx.config.deeplinkScheme, session.id),
    created_at: new Date(session.createdAt).toISOString(),
    expires_at: new Date(session.expiresAt).toISOString(),
    placement: placementOnWire(session.placement, files),
    model_frame: session.modelFrame,
    model_assets: session.assets.map((a, order) => {
      const {
        usdz_file: usdz,
        glb_file: glb,
        reality_file: reality,
        quick_look: quickLook,
        parts,
        element_records: records,
        storeys,
        ...info
      } = a.info;
      // Sessions made before GLBs and Quick Look packages were delivered lack them: null, not absent.
      const made = quickLook && session.files.find((f) => f.name === quickLook.file);
      const quick = quickLook && {
        usdz_url: files + quickLook.file,
        bytes: made?.bytes ?? null,
        sha256: made?.sha256 ?? null,
        anchoring: quickLook.anchoring,
        reason: quickLook.reason,
      };
      return {
        order: a.order,
        source_name: a.sourceName,
        ...info,
        glb_bytes: info.glb_bytes ?? null,
        triangles_without_element: info.triangles_without_element ?? null,
        element_records: records ? { url: files + records.file, bytes: records.bytes, sha256: records.sha256, count: records.count } : null,
        glb_sha256: info.glb_sha256 ?? null,
        storeys: storeys?.map((s, i) => ({ ...s, session_level: storeyLevels[order]![i]! })) ?? null,
        ar_budget: info.ar_budget ?? null,
        reality_url: reality === null ? null : files + reality,
        reality_status:
          reality !== null
            ? ('made' as const)
            : info.warnings.some((w) => w.code === 'reality_failed')
              ? ('failed' as const)
              : ('not_configured' as const),
        usdz_url: files + usdz,
        glb_url: glb ? files + glb : null,
        quick_look: quick ?? null,
        parts: parts
          ? {
              zip_url: files + parts.file,
              zip_bytes: parts.bytes,
              zip_sha256: parts.sha256,
              items: parts.items.map(({ file, ...part }, i) => ({ ...part, usdz_url: files + file, session_level: levels[order]![i]! })),
              at_placement: parts.at_placement,
            }
          : null,
      };
    }),
    page_url: `${baseUrl(ctx, req)}/s/${session.id}`,
    // Made on first request, so offered whenever it can be made.
    preview_glb_url:
      session.files.some((f) => f.name === PREVIEW_FILE) || derivedFileOf(session, PREVIEW_FILE) ? files + PREVIEW_FILE : null,
  };
  return detail;
}
