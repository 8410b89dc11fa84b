import { count } from '@arsession/convert/schemas';
import { type Static, Type } from '@sinclair/typebox';
import { stringEnum } from './wireSchemaHelpers.js';

/** `GET /healthz`: the process answers, with its version (OpenAPI `Health`). */
export const Health = Type.Object(
  {
    status: Type.Literal('ok'),
    version: Type.String({
      description:
        "the converter's version, e.g. 0.1.0+13: the package version, and after the " +
        '+ the revision of what it writes (the conversion cache keys entries by it)',
    }),
  },
  { additionalProperties: false },
);
/** The body of `GET /healthz` (see the schema of the same name). */
export type Health = Static<typeof Health>;

/** `GET /readyz`: each dependency's state and the admission figures (OpenAPI `Readiness`). */
export const Readiness = Type.Object(
  {
    status: stringEnum(['ready', 'not_ready']),
    // `additionalProperties`, not TypeBox's `patternProperties`: the way OpenAPI tools read a map.
    checks: Type.Unsafe<Record<string, string>>({
      type: 'object',
      additionalProperties: { type: 'string' },
      description:
        "each dependency (database, jobs, objects, data_dir, accepting): 'ok', or which way it failed ('cannot " +
        "be reached', 'is not writable', 'shutting down'); the error itself is in the server's log, never here",
    }),
    in_flight: count(),
    capacity: count(),
  },
  { additionalProperties: false },
);
/** The body of `GET /readyz` (see the schema of the same name). */
export type Readiness = Static<typeof Readiness>;

/** Apple's association file of the domain: the apps that open its links, and which (OpenAPI `AppSiteAssociation`). */
export const AppSiteAssociation = Type.Object(
  {
    applinks: Type.Object(
      {
        details: Type.Array(
          Type.Object(
            {
              appIDs: Type.Array(Type.String(), { description: 'the apps, each <Team ID>.<bundle id>' }),
              components: Type.Array(
                Type.Object(
                  {
                    '/': Type.String({ description: 'the paths they open' }),
                    comment: Type.String({ description: 'what those paths are' }),
                  },
                  { additionalProperties: false },
                ),
                { description: 'the links they open: session pages' },
              ),
            },
            { additionalProperties: false },
          ),
          { description: 'one entry: the configured apps and the links they open' },
        ),
      },
      { additionalProperties: false, description: 'the apps that open links of this domain, and which links' },
    ),
  },
  { additionalProperties: false },
);
/** The body of `/.well-known/apple-app-site-association` (see the schema of the same name). */
export type AppSiteAssociation = Static<typeof AppSiteAssociation>;
