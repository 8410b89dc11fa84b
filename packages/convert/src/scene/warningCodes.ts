/**
 * Every warning a conversion can attach to a delivered model, with what it means: the OpenAPI
 * document lists them as an enum, and a reader cannot emit a code this table lacks (its type is
 * this table's keys). A warning says what the reader changed or dropped; the model was delivered.
 */
export const WARNING_CODES = {
  // Where the model is.
  recentred: "the geometry lay far from the origin and was moved near it; model_frame.offset (and the asset's offset) state the shift",
  far_outliers: 'some elements lie kilometres from the rest of the model (stray placements); they are delivered where the file puts them',
  no_geometry: 'the model has nothing to draw',
  // The AR budget (ar_budget says what it did, per category).
  budget_merged: 'mesh prims were merged (by storey and material) to fit the mesh-prim limit',
  budget_simplified:
    'triangles were simplified to fit the triangle limit; ar_budget.max_deviation_m bounds how far the delivered surface strays',
  budget_proxied: 'small clutter (furniture, fittings) was drawn as boxes to fit the triangle limit',
  budget_left_out: 'elements were left out to fit the triangle limit; ar_budget.categories names them by class',
  budget_textures_resized: 'textures were scaled down to the texture-size limit',
  // GLB.
  extra_scenes: 'the file has several scenes; only the default one is delivered',
  animation_dropped: 'animations were dropped; the model is delivered in its rest pose',
  skin_rest_pose: 'skinned meshes are delivered in their rest pose',
  morph_rest_pose: 'morph targets were applied at their default weights and dropped',
  mirrored_node_baked: 'nodes with a mirroring (negative) scale were baked into world space, faces kept the right way out',
  instancing_expanded: 'GPU instancing (EXT_mesh_gpu_instancing) was expanded into separate nodes',
  non_triangle_primitive: 'points and lines were dropped: AR clients draw triangles only',
  extra_uv_sets: 'only the first UV set is delivered',
  texcoord_1_ignored: 'textures mapped through a second UV set were mapped through the first',
  texture_transform_ignored: 'KHR_texture_transform (offset, rotation, tiling) was not applied',
  material_extensions_dropped: 'material extensions UsdPreviewSurface cannot express were dropped',
  texture_transcoded_webp: 'WebP textures were transcoded to PNG (ARKit cannot load WebP)',
  // USDZ.
  prims_dropped: 'prims with no surface ARKit can draw were dropped from the converted model',
  composition_incomplete: 'composition could not follow every reference of the package',
  mesh_skipped: 'meshes with inconsistent topology were skipped',
  instances_expanded: 'point instancers were expanded into one node per instance',
  assets_missing: 'asset paths name files the package does not hold',
  entries_left_out: 'package entries of kinds ARKit cannot load were left out',
  stage_defaults: "the stage does not state its up axis or units; USD's defaults were used",
  repacked: "the package broke ARKit's packaging rules only; it is delivered repacked, its entries untouched",
  rewritten: "the package breaks ARKit's rules; it is delivered converted",
  // Materials and textures (any format).
  material_without_surface: "materials without UsdPreviewSurface were given USD's default grey",
  specular_workflow: 'specular-workflow materials were delivered in the metallic workflow',
  several_uv_sets: 'materials reading textures through several UV sets read them through one',
  texture_dropped: 'textures of a kind ARKit cannot load were dropped; their materials keep constant values',
  texture_transcoded_tga: 'TGA textures were transcoded to PNG (ARKit cannot load TGA)',
  texture_unreadable: 'a texture could not be decoded; its material keeps constant values',
} as const;

/** A warning's code: one of {@link WARNING_CODES}. */
export type WarningCode = keyof typeof WARNING_CODES;
