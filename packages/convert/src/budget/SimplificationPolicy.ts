/**
 * What the triangle step gives up and when: the thresholds of `SceneSimplification`'s policy, in
 * metres or shares of a size. Each is an option of `simplifyToBudget` (and of the
 * `simplifyTriangles` step), as glTF-Transform's `simplify()` takes its ratio and error.
 */
export interface SimplificationPolicy {
  /** Parts smaller than this (m; and than a thousandth of the model) may be simplified away whole: bolts, fixings. */
  vanishBelow: number;
  /**
   * Clutter is coarsened at an error relative to its own size, from this share of its diagonal
   * (half a centimetre on a chair: what curved parts tessellated finely give up unseen)...
   */
  clutterFirstShare: number;
  /** ...doubling up to this share (5 cm on a chair), past which a box says as much. */
  clutterLastShare: number;
  /** Clutter at most this large (m) may stand as a box: a chair, a cubicle, a shrub, not a 20 m duct run. */
  proxyMaxSize: number;
  /**
   * Clutter is boxed or left out only while it is at most this share of the model's size: a chair
   * in a restaurant is clutter, the chair that is the whole model (a GLB of one object) is not.
   */
  clutterMaxShareOfModel: number;
  /**
   * The envelope's first error (m): what its triangles give up when nothing else is enough is only
   * what adds no shape (a door handle's facets); a wall, a slab, a pane has nothing to give at it.
   */
  envelopeNoShapeError: number;
  /** Envelope detail whose nearest stand-in lies farther than this (m) is offered simplified too (a door frame's profile). */
  simplifyDetailPast: number;
  /** The error (m) envelope detail is simplified at when it is: a frame's facets go, not its shape. */
  detailError: number;
  /** Metres within which a stand-in of envelope detail is measured no closer (its figure comes out at most this). */
  standInSettled: number;
  /**
   * The errors (m) walls, slabs and roofs may be simplified at, no part pruned, while their detail
   * is stood in for: each mesh takes the coarsest that lies no farther from its full self than
   * the detail does (a façade of 8 buildings gives 2 cm of its walls before its doors go).
   */
  shapeErrors: readonly number[];
  /**
   * A wall, slab or roof at most this thick (m: a ceiling's tiles, a floor's finish, a glass wall)
   * may be drawn as its two faces without its edges, while its detail is stood in for: a ceiling
   * with light-fitting holes has as many triangles round its holes as on its faces, and no point
   * of it lies farther than half its thickness from its faces.
   */
  thinPlate: number;
  /**
   * Envelope detail stands in as boxes (or sheets) round the parts of its triangles, a part cut
   * in two where its halves' boxes have at most this share of its box's surface (`proxyParts`'
   * `hollowShare`): an L-shaped railing stands as a box along each run. Clutter is boxed whole
   * (more boxes would cost a piece of furniture its place); 0 cuts nothing.
   */
  detailHollowShare: number;
  /**
   * A frame standing as its sheet or box across its opening (a window's, a doorway's) is drawn in its
   * material at most this opaque: the opening is seen through, not closed by a panel of the frame.
   */
  openSheetOpacity: number;
}

/** Defaults of {@link SimplificationPolicy}: what every delivery has been made with. */
export const SIMPLIFICATION_POLICY_DEFAULTS: Readonly<SimplificationPolicy> = {
  vanishBelow: 0.5,
  clutterFirstShare: 0.005,
  clutterLastShare: 0.04,
  proxyMaxSize: 5,
  clutterMaxShareOfModel: 0.25,
  envelopeNoShapeError: 0.001,
  simplifyDetailPast: 0.02,
  detailError: 0.01,
  standInSettled: 0.01,
  shapeErrors: [0.005, 0.02, 0.04],
  thinPlate: 0.06,
  detailHollowShare: 0.6,
  openSheetOpacity: 0.3,
};
