import { choiceField, fileField, type FormField, plainField } from '../form/FormField.js';

/**
 * The fields every session endpoint takes besides its placement's: the models (one file, several,
 * or a saved one's id) and the conversion block. Declared once: the endpoints' accepted fields
 * and the document's request bodies come from here and from each placement method's `form`.
 */
export const SESSION_FORM: readonly FormField[] = [
  fileField('model_file', {
    type: 'string',
    format: 'binary',
    description: 'one model (IFC, ifcZIP, GLB or USDZ, recognised by content); exclusive with model_files',
  }),
  fileField('model_files', {
    type: 'array',
    items: { type: 'string', format: 'binary' },
    description: 'several models as repeated parts; their order is kept in model_assets',
  }),
  plainField('model_id', {
    type: 'string',
    description:
      "instead of model_file: the id of a model saved to the key's account (GET " +
      '/api/vision/v1/models/); it is not sent again, nor saved twice. Needs X-API-Key',
  }),
  plainField('conversion', {
    type: 'string',
    contentMediaType: 'application/json',
    contentSchema: {
      type: 'object',
      properties: { mode: { type: 'string', enum: ['auto'] } },
      required: ['mode'],
      additionalProperties: false,
    },
    description: 'the conversion block as one JSON object, e.g. {"mode":"auto"}; or send conversion.mode',
  }),
  choiceField('conversion.mode', ['auto'], { description: '`custom` (and any conversion.custom.*) is refused with 400' }),
];
