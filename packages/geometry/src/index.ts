/**
 * @packageDocumentation
 * Pure geometry for AR placement: axis conventions, poses, door openings, virtual-anchor frames,
 * by-plane footprints and gravity-aware alignment. No I/O; everything is plain data.
 */
export type { Bounds, Mat4, Quat, ReadonlyQuat, ReadonlyVec3, UpAxis, Vec3 } from './types/vector.js';
export { fromYUp, toYUp, yUpToZUp, yUpToZUpMat4, yUpToZUpQuat, zUpToYUp, zUpToYUpMat4, zUpToYUpQuat } from './axes/upAxis.js';
export {
  composePoses,
  createPose,
  IDENTITY_POSE,
  invertPose,
  poseAxis,
  poseFromAxes,
  poseFromMatrix,
  transformDirection,
  transformPoint,
  type Pose,
} from './pose/pose.js';
export { poseFromYUp, poseToYUp } from './pose/poseToYUp.js';
export {
  AnchorValidationError,
  DegenerateInputError,
  GeometryValidationError,
  OpeningValidationError,
  type Problem,
} from './errors/GeometryValidationError.js';
export type { Opening } from './opening/opening.js';
export { DOOR_SIZE_LIMITS, type DoorSizeLimits } from './opening/doorSize.js';
export {
  validateOpening,
  VALIDATE_OPENING_DEFAULTS,
  type OpeningInput,
  type ValidateOpeningOptions,
} from './opening/validateOpening.js';
export type { AnchorFrame, AnchorKind } from './anchor/anchorFrame.js';
export { ANCHOR_DEFAULTS, type AnchorOptions } from './anchor/anchorFields.js';
export {
  frameFromNormalAndForward,
  FRAME_FROM_NORMAL_AND_FORWARD_DEFAULTS,
  type FrameFromNormalAndForwardOptions,
  type NormalForwardFrame,
} from './anchor/frameFromNormalAndForward.js';
export { rectangleShortSideFrame, type RectangleAnchorFrame, type RectangleShortSideInput } from './anchor/rectangleShortSide.js';
export {
  MIN_SEGMENT_LENGTH,
  segmentDirectionalFrame,
  type PlacementSource,
  type SegmentAnchorFrame,
  type SegmentDirectionalInput,
} from './anchor/segmentDirectional.js';
export { circleDirectionalFrame, type CircleAnchorFrame, type CircleDirectionalInput } from './anchor/circleDirectional.js';
export {
  cornerDirectionalFrame,
  MIN_CORNER_ANGLE_DEG,
  type CornerAnchorFrame,
  type CornerDirectionalInput,
} from './anchor/cornerDirectional.js';
export { referenceImageFrame, type ReferenceImageFrame, type ReferenceImageInput } from './anchor/referenceImageFrame.js';
export { footprintPose } from './placement/footprintPose.js';
export {
  alignYaw,
  type AlignmentDiagnostics,
  type AlignYawInput,
  type DirectionCorrespondence,
  type PointCorrespondence,
  type YawAlignment,
} from './alignment/alignYaw.js';
export { alignFrames } from './alignment/alignFrames.js';
export { INNER_NODE, type Bvh, type TriangleMesh } from './bvh/Bvh.js';
export { buildBvh, BUILD_BVH_DEFAULTS, type BuildBvhOptions } from './bvh/buildBvh.js';
export { raycastFirst, type RayHit } from './bvh/raycastFirst.js';
export { triangleNormal } from './bvh/triangleNormal.js';
export { nearestDistance, nearestTriangle, triangleDistanceSquared } from './bvh/nearestDistance.js';
export { vectorLength } from './bvh/vectorLength.js';
export {
  farthestOnTriangle,
  FARTHEST_ON_TRIANGLE_DEFAULTS,
  type FarthestOnTriangleOptions,
  type FarthestBound,
} from './bvh/farthestOnTriangle.js';
export { DoorNotFoundError, type DoorNotFoundReason } from './detection/DoorNotFoundError.js';
export { readViewerAndGaze } from './detection/readViewerAndGaze.js';
export {
  CHOOSE_OPENING_DEFAULTS,
  chooseOpening,
  type ChooseOpeningOptions,
  type ChosenOpening,
  type OpeningCandidate,
} from './detection/chooseOpening.js';
export { FIND_WALL_PLANES_DEFAULTS, findWallPlanes, type FindWallPlanesOptions, type WallPlane } from './detection/findWallPlanes.js';
export {
  FIND_OPENING_IN_WALL_DEFAULTS,
  findOpeningInWall,
  type FindOpeningInWallOptions,
  type NoOpeningReason,
  type WallOpening,
} from './detection/findOpeningInWall.js';
export {
  DETECT_OPENING_DEFAULTS,
  detectOpening,
  type DetectedOpening,
  type DetectionMesh,
  type DetectOpeningOptions,
} from './detection/detectOpening.js';
export {
  DETECT_DOOR_DEFAULTS,
  detectDoor,
  type DetectDoorInput,
  type DetectDoorOptions,
  type DetectedDoor,
} from './detection/detectDoor.js';
export {
  quickLookAnchor,
  QUICK_LOOK_ANCHOR_DEFAULTS,
  type QuickLookAnchor,
  type QuickLookAnchorOptions,
  type QuickLookTarget,
} from './quicklook/quickLookAnchor.js';
