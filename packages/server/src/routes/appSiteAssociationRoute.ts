import type { Request, Response } from 'express';
import type { AppSiteAssociation } from '../records/ServiceStatus.js';
import type { ServerContext } from '../app/ServerContext.js';
import { ApiError } from '../errors/ApiError.js';

/** Where iOS looks for a domain's universal links. */
export const APP_SITE_ASSOCIATION_PATH = '/.well-known/apple-app-site-association';

/**
 * The association file of the domain (Apple's `applinks`): the configured apps
 * (`ARSESSION_APPLE_APP_IDS`) open session pages, `/s/<session_id>`, as universal links, so the
 * https link a person receives opens the app that registered this domain and no other, where a
 * custom scheme opens whatever app claimed it. Served as JSON, without a redirect, as iOS asks;
 * 404 when no app is configured.
 *
 * @example
 * ```ts
 * app.get(APP_SITE_ASSOCIATION_PATH, appSiteAssociationRoute(ctx));
 * ```
 */
export function appSiteAssociationRoute(ctx: ServerContext) {
  return (_req: Request, res: Response): void => {
    const appIDs = ctx.config.appleAppIds;
    if (appIDs.length === 0)
      throw new ApiError(404, 'not_found', "no app opens this server's links: ARSESSION_APPLE_APP_IDS is not set", [
        { field: 'path', message: 'no universal-link association is configured' },
      ]);
    res.type('application/json').set('Cache-Control', 'public, max-age=3600').json(association(appIDs));
  };
}

/** The association of `appIDs` with the session pages. */
function association(appIDs: string[]): AppSiteAssociation {
  return { applinks: { details: [{ appIDs, components: [{ '/': '/s/*', comment: "a session's page: the app opens the session" }] }] } };
}
