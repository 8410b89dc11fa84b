import type { WarningCode } from '../../scene/warningCodes.js';
import { decodeTga, TgaError } from '../../image/decodeTga.js';
import { encodePng } from '../../image/encodePng.js';
import type { ChannelTextureRef, SceneMaterial, SceneTexture, SceneWarning, TextureRef } from '../../scene/SceneData.js';
import { splitPropertyPath, UsdError, type PackageLayers, type SdfValue, type StagePrim, type UsdStage } from '@arsession/usd';

type Channel = 'rgb' | 'r' | 'g' | 'b' | 'a';

/** A UsdUVTexture feeding a surface input: its image, and how the input reads it. */
interface TextureInput {
  texture: number;
  wrap: NonNullable<TextureRef['wrap']>;
  channel: Channel;
  /** The texture's `inputs:scale` and `inputs:bias` (what it multiplies and adds to every texel). */
  scale: [number, number, number, number];
  bias: [number, number, number, number];
  /** The primvar its coordinates come from. */
  uvName: string;
}

/** A surface input: a texture, or a constant (possibly none). */
type InputSource = { texture: TextureInput } | { value: SdfValue | undefined };

const WRAP: Record<string, 'repeat' | 'clamp' | 'mirror'> = {
  repeat: 'repeat',
  mirror: 'mirror',
  clamp: 'clamp',
  black: 'clamp',
  useMetadata: 'repeat',
};
const MAX_CONNECTION_DEPTH = 32;

/**
 * The stage's UsdPreviewSurface materials as {@link SceneMaterial}s, made on first use: every
 * input of the surface — diffuse and emissive colour, metallic, roughness, opacity (and its
 * threshold), normal, occlusion — as a constant or as a channel of a UsdUVTexture, following
 * connections through NodeGraphs and Material interface inputs. PNG and JPEG images are carried
 * over byte for byte (once each); others fall back to the input's constant, with a warning.
 *
 * @example
 * ```ts
 * const materials = new UsdMaterials(stage, layers);
 * const index = materials.of(boundMaterial(stage, mesh), true);
 * ```
 */
export class UsdMaterials {
  readonly materials: SceneMaterial[] = [];
  readonly textures: SceneTexture[] = [];
  readonly warnings = new Map<string, SceneWarning>();
  private readonly byKey = new Map<string, number>();
  private readonly textureByEntry = new Map<string, number | undefined>();
  private readonly uvNames = new Map<string, string>();

  constructor(
    private readonly stage: UsdStage,
    private readonly layers: PackageLayers,
  ) {}

  /**
   * The index of the scene material for a Material prim (none: `displayColor`, else USD's grey),
   * drawn single- or double-sided as the mesh says.
   */
  of(material: StagePrim | undefined, doubleSided: boolean, displayColor?: readonly number[]): number {
    const key = material ? `${material.path}|${doubleSided}` : `display:${displayColor?.join(',') ?? ''}|${doubleSided}`;
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.materials.length;
      this.byKey.set(key, index);
      this.materials.push(material ? this.read(material, doubleSided) : displayMaterial(displayColor, doubleSided));
    }
    return index;
  }

  /** The primvar a Material's textures read their coordinates from (`st` unless it says otherwise). */
  uvName(material: StagePrim | undefined): string | undefined {
    if (!material) return undefined;
    if (!this.uvNames.has(material.path)) this.read(material, false);
    return this.uvNames.get(material.path);
  }

  private read(material: StagePrim, doubleSided: boolean): SceneMaterial {
    const out: SceneMaterial = {
      name: material.name,
      baseColor: [0.18, 0.18, 0.18],
      opacity: 1,
      metallic: 0,
      roughness: 0.5,
      emissive: [0, 0, 0],
      doubleSided,
    };
    const surface = this.surfaceOf(material);
    if (!surface) {
      this.warn(
        'material_without_surface',
        `some materials have no UsdPreviewSurface (such as ${material.path}); USD's default grey was used`,
      );
      return out;
    }
    const input = (name: string) => this.input(surface, `inputs:${name}`, 0);
    const uvNames = new Set<string>();
    const use = (t: TextureInput) => {
      uvNames.add(t.uvName);
      return t;
    };

    const diffuse = input('diffuseColor');
    if ('texture' in diffuse) {
      const t = use(diffuse.texture);
      out.baseColorTexture = ref(t);
      out.baseColor = [t.scale[0], t.scale[1], t.scale[2]];
    } else out.baseColor = color(diffuse.value, out.baseColor);

    const opacity = input('opacity');
    if ('texture' in opacity) {
      const t = use(opacity.texture);
      const fromBaseAlpha = out.baseColorTexture?.texture === t.texture && t.channel === 'a';
      if (fromBaseAlpha) out.alphaBlend = true;
      else out.opacityTexture = channelRef(t);
      out.opacity = scaleOf(t);
    } else out.opacity = scalar(opacity.value, 1);
    const threshold = scalar(valueOfInput(input('opacityThreshold')), 0);
    if (threshold > 0) {
      out.alphaCutoff = threshold;
      delete out.alphaBlend;
    }

    for (const [name, set] of [
      [
        'metallic',
        (t: ChannelTextureRef, k: number) => {
          out.metallicTexture = t;
          out.metallic = k;
        },
      ],
      [
        'roughness',
        (t: ChannelTextureRef, k: number) => {
          out.roughnessTexture = t;
          out.roughness = k;
        },
      ],
      [
        'occlusion',
        (t: ChannelTextureRef) => {
          out.occlusionTexture = t;
        },
      ],
    ] as const) {
      const source = input(name);
      if ('texture' in source) set(channelRef(use(source.texture)), scaleOf(source.texture));
      else if (name === 'metallic') out.metallic = scalar(source.value, 0);
      else if (name === 'roughness') out.roughness = scalar(source.value, 0.5);
    }
    const specular = valueOfInput(input('useSpecularWorkflow'));
    if (scalar(specular, 0) === 1)
      this.warn(
        'specular_workflow',
        'materials in the specular workflow were delivered in the metallic one (specularColor is not carried over)',
      );

    const emissive = input('emissiveColor');
    if ('texture' in emissive) {
      const t = use(emissive.texture);
      out.emissiveTexture = ref(t);
      out.emissive = [t.scale[0], t.scale[1], t.scale[2]];
    } else out.emissive = color(emissive.value, [0, 0, 0]);

    const normal = input('normal');
    if ('texture' in normal) {
      const t = use(normal.texture);
      // An 8-bit normal map is read with scale 2 and bias −1 (the usual authoring); glTF's normal
      // scale is what multiplies x and y beyond that.
      out.normalTexture = { ...ref(t), scale: Math.abs(t.bias[0]) > 0 ? t.scale[0] / 2 : 1 };
    }
    if (uvNames.size > 1)
      this.warn(
        'several_uv_sets',
        `some materials read textures through several UV sets (such as ${material.path}: ` +
          `${[...uvNames].join(', ')}); all were mapped through the first`,
      );
    this.uvNames.set(material.path, [...uvNames][0] ?? 'st');
    return out;
  }

  /** The UsdPreviewSurface of a Material: what `outputs:surface` connects to, else the first one inside it. */
  private surfaceOf(material: StagePrim): StagePrim | undefined {
    let at: { prim: StagePrim; property: string } | undefined = { prim: material, property: 'outputs:surface' };
    for (let depth = 0; at && depth < MAX_CONNECTION_DEPTH; depth++) {
      if (at.prim.typeName === 'Shader') return this.shaderId(at.prim) === 'UsdPreviewSurface' ? at.prim : undefined;
      at = this.connected(at.prim, at.property);
    }
    for (const prim of this.stage.traverse(material))
      if (prim.typeName === 'Shader' && this.shaderId(prim) === 'UsdPreviewSurface') return prim;
    return undefined;
  }

  /**
   * What a shader input resolves to: its own value, or — through any number of NodeGraph or
   * Material interface inputs and outputs — the output of a UsdUVTexture.
   */
  private input(prim: StagePrim, property: string, depth: number): InputSource {
    const next = this.connected(prim, property);
    if (!next || depth > MAX_CONNECTION_DEPTH) return { value: this.stage.value(prim, property) };
    if (next.prim.typeName === 'Shader') {
      const texture = this.shaderId(next.prim) === 'UsdUVTexture' ? this.textureInput(next.prim, next.property) : undefined;
      return texture ? { texture } : { value: this.fallbackOf(next.prim) ?? this.stage.value(prim, property) };
    }
    return this.input(next.prim, next.property, depth + 1);
  }

  private connected(prim: StagePrim, property: string): { prim: StagePrim; property: string } | undefined {
    const [target] = this.stage.connections(prim, property);
    if (!target) return undefined;
    const [path, name] = splitPropertyPath(target);
    const owner = this.stage.prim(path);
    return owner && name ? { prim: owner, property: name } : undefined;
  }

  private textureInput(shader: StagePrim, output: string): TextureInput | undefined {
    const file = this.stage.asset(shader, 'inputs:file');
    const texture = file && this.textureOf(file.path, file.layer);
    if (texture === undefined) return undefined;
    const channel = (output.replace(/^outputs:/, '') || 'rgb') as Channel;
    const wrap = (name: string) => WRAP[tokenOf(this.stage.value(shader, name)) ?? 'useMetadata'] ?? 'repeat';
    return {
      texture,
      wrap: [wrap('inputs:wrapS'), wrap('inputs:wrapT')],
      channel: ['rgb', 'r', 'g', 'b', 'a'].includes(channel) ? channel : 'rgb',
      scale: vec4(this.stage.value(shader, 'inputs:scale'), [1, 1, 1, 1]),
      bias: vec4(this.stage.value(shader, 'inputs:bias'), [0, 0, 0, 0]),
      uvName: this.uvNameOf(shader),
    };
  }

  /** The primvar a texture's `inputs:st` reads, through a UsdTransform2d (which is reported, not applied). */
  private uvNameOf(texture: StagePrim): string {
    let at = this.connected(texture, 'inputs:st');
    for (let depth = 0; at && depth < MAX_CONNECTION_DEPTH; depth++) {
      if (at.prim.typeName === 'Shader') {
        const id = this.shaderId(at.prim) ?? '';
        if (id.startsWith('UsdPrimvarReader')) {
          const name = valueOfInput(this.input(at.prim, 'inputs:varname', 0));
          return name && (name.kind === 'token' || name.kind === 'string') && name.value ? name.value : 'st';
        }
        if (id === 'UsdTransform2d') {
          this.warn(
            'texture_transform_ignored',
            'UsdTransform2d (texture offset, rotation, scale) was not applied; textures show untransformed',
          );
          at = this.connected(at.prim, 'inputs:in');
          continue;
        }
        return 'st';
      }
      at = this.connected(at.prim, at.property);
    }
    return 'st';
  }

  private textureOf(assetPath: string, layer: string): number | undefined {
    let entry: ReturnType<PackageLayers['resolve']>;
    try {
      entry = this.layers.resolve(assetPath, layer);
    } catch (err) {
      // A texture the package does not hold (or a broken package inside it holds): OpenUSD draws
      // without it, and so do we (readUsdz names it).
      if (err instanceof UsdError) return undefined;
      throw err;
    }
    if (this.textureByEntry.has(entry.name)) return this.textureByEntry.get(entry.name);
    const image = this.deliverableImage(entry.name, entry.data);
    let index: number | undefined;
    if (image) {
      index = this.textures.length;
      this.textures.push({ name: entry.name.replace(/^.*\//, '').replace(/\.[^.]*$/, '') || `texture_${index}`, ...image });
    } else {
      this.warn(
        'texture_dropped',
        `textures other than PNG, JPEG and TGA (such as ${entry.name}) cannot ` +
          `be delivered to ARKit; their inputs keep their constant values`,
      );
    }
    this.textureByEntry.set(entry.name, index);
    return index;
  }

  /** The image as ARKit loads it: PNG and JPEG as they are, TGA (which OpenUSD reads, ARKit not) as PNG. */
  private deliverableImage(name: string, d: Uint8Array): Pick<SceneTexture, 'mimeType' | 'data'> | undefined {
    if (d[0] === 0x89 && d[1] === 0x50 && d[2] === 0x4e && d[3] === 0x47) return { mimeType: 'image/png', data: d };
    if (d[0] === 0xff && d[1] === 0xd8) return { mimeType: 'image/jpeg', data: d };
    if (!/\.tga$/i.test(name)) return undefined;
    try {
      const png = encodePng(decodeTga(d));
      this.warn('texture_transcoded_tga', `TGA textures (such as ${name}) were transcoded to PNG: ARKit cannot load TGA`);
      return { mimeType: 'image/png', data: png };
    } catch (err) {
      if (!(err instanceof TgaError)) throw err;
      this.warn('texture_unreadable', `the texture ${name} cannot be decoded (${err.message}); its inputs keep their constant values`);
      return undefined;
    }
  }

  private fallbackOf(shader: StagePrim): SdfValue | undefined {
    return this.stage.value(shader, 'inputs:fallback');
  }

  private shaderId(shader: StagePrim): string | undefined {
    return tokenOf(this.stage.value(shader, 'info:id'));
  }

  private warn(code: WarningCode, message: string): void {
    if (!this.warnings.has(code)) this.warnings.set(code, { code, message });
  }
}

function displayMaterial(displayColor: readonly number[] | undefined, doubleSided: boolean): SceneMaterial {
  const [r = 0.18, g = 0.18, b = 0.18] = displayColor ?? [];
  return {
    name: displayColor ? 'displayColor' : 'default',
    baseColor: [r, g, b],
    opacity: 1,
    metallic: 0,
    roughness: 0.5,
    emissive: [0, 0, 0],
    doubleSided,
  };
}

function ref(t: TextureInput): TextureRef {
  return { texture: t.texture, wrap: t.wrap };
}

function channelRef(t: TextureInput): ChannelTextureRef {
  return { ...ref(t), channel: t.channel === 'rgb' ? 'r' : t.channel };
}

/** The scale of the channel an input reads (what SceneData calls the input's factor). */
function scaleOf(t: TextureInput): number {
  return t.scale[{ rgb: 0, r: 0, g: 1, b: 2, a: 3 }[t.channel]]!;
}

function valueOfInput(source: InputSource): SdfValue | undefined {
  return 'value' in source ? source.value : undefined;
}

function tokenOf(v: SdfValue | undefined): string | undefined {
  return v && (v.kind === 'token' || v.kind === 'string') ? v.value : undefined;
}

function scalar(v: SdfValue | undefined, fallback: number): number {
  if (v?.kind === 'number' && Number.isFinite(v.value)) return v.value;
  if (v?.kind === 'tuple' && Number.isFinite(v.value[0])) return v.value[0]!;
  return fallback;
}

function color(v: SdfValue | undefined, fallback: [number, number, number]): [number, number, number] {
  return v?.kind === 'tuple' && v.value.length >= 3 && v.value.slice(0, 3).every(Number.isFinite)
    ? [v.value[0]!, v.value[1]!, v.value[2]!]
    : fallback;
}

function vec4(v: SdfValue | undefined, fallback: [number, number, number, number]): [number, number, number, number] {
  return v?.kind === 'tuple' && v.value.length === 4 && v.value.every(Number.isFinite)
    ? [v.value[0]!, v.value[1]!, v.value[2]!, v.value[3]!]
    : fallback;
}
