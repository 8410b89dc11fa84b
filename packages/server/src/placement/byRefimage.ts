import { openSync, readSync, closeSync } from 'node:fs';
import { referenceImageFrame, type ReferenceImageFrame } from '@arsession/geometry';
import { ApiError, badField } from '../errors/ApiError.js';
import { directionField, fileField, metresField, pointField, requireTextFields, upAxisField } from '../form/FormField.js';
import type { UploadedFile } from '../form/readMultipartForm.js';
import type { ByRefimagePlacement } from '../records/Placement.js';
import type { PlacementMethod } from './PlacementMethod.js';
import { deliveredPose, round } from './poseJson.js';

interface RefimageInput {
  frame: ReferenceImageFrame;
  image: UploadedFile;
  imageType: 'png' | 'jpeg';
}

/** by_refimage's fields: the image, its printed width and where it lies on the model. */
const FORM = {
  image: fileField('reference_image', { type: 'string', format: 'binary', description: 'PNG or JPEG' }, { required: true }),
  physicalWidth: metresField('reference_image.physical_width', 'printed width (m)', { required: true }),
  center: pointField('reference_image.center', 'centre of the printed image on the model', { required: true }),
  normal: directionField('reference_image.normal', 'normal of the image face', { required: true }),
  up: directionField('reference_image.up', 'up direction of the image, in its plane', { required: true }),
  coordinateSystem: upAxisField('reference_image.coordinate_system'),
};

/**
 * by_refimage: the model is placed by a printed reference image that ARKit detects. The image
 * (PNG or JPEG, recognised by content) is kept with the session and linked from the placement.
 */
export const byRefimage: PlacementMethod<RefimageInput, ByRefimagePlacement> = {
  path: 'by_refimage',
  method: 'by_refimage',
  requiresKey: true,
  form: Object.values(FORM),
  read(form, limit) {
    const images = form.files.filter((f) => f.field === 'reference_image');
    if (images.length === 0) throw badField('reference_image', 'the reference image (PNG or JPEG file) is required', 'missing_field');
    if (images.length > 1) throw badField('reference_image', `sent ${images.length} times; send one image`, 'duplicate_field');
    const image = images[0]!;
    const imageType = imageTypeOf(image.path);
    if (!imageType) {
      throw new ApiError(415, 'unsupported_image', `reference_image ${image.name} is not a PNG or JPEG image`, [
        { field: 'reference_image', message: 'must be a PNG or JPEG image' },
      ]);
    }
    requireTextFields(form, Object.values(FORM));
    const coordinateSystem = FORM.coordinateSystem.read(form, limit) ?? 'y-up';
    // Present (required above): the values are judged by the geometry builder (422).
    const frame = referenceImageFrame(
      {
        center: FORM.center.read(form, limit)!,
        normal: FORM.normal.read(form, limit)!,
        up: FORM.up.read(form, limit)!,
        physicalWidth: FORM.physicalWidth.read(form, limit)!,
      },
      { coordinateSystem },
    );
    return { frame, image, imageType };
  },
  files: (input) => [
    {
      upload: input.image,
      name: input.imageType === 'png' ? 'reference_image.png' : 'reference_image.jpg',
      contentType: input.imageType === 'png' ? 'image/png' : 'image/jpeg',
    },
  ],
  place(input, { primary }) {
    return {
      method: 'by_refimage',
      pose: deliveredPose(input.frame.pose, primary.offset),
      physical_width: round([input.frame.physicalWidth])[0]!,
      correction_deg: round([input.frame.correctionDeg], 1e4)[0]!,
      image_file: input.imageType === 'png' ? 'reference_image.png' : 'reference_image.jpg',
    };
  },
};

/** PNG or JPEG by magic bytes. */
function imageTypeOf(path: string): 'png' | 'jpeg' | undefined {
  const head = Buffer.alloc(8);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 8, 0);
  } finally {
    closeSync(fd);
  }
  if (head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  return undefined;
}
