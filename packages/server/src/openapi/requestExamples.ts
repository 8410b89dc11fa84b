/**
 * A session request a reader can send as it is: its form fields as text, and its files by name.
 * The models are public sample files (`AC20-FZK-Haus.ifc`, the Karlsruhe Institute of Technology's
 * IFC4 sample house; `Box.glb`, the Khronos glTF sample), and a test sends every example here
 * with them and expects what the document promises (test/openapiExamples.test.ts).
 */
export interface RequestExample {
  summary: string;
  description: string;
  value: Record<string, string>;
}

const HOUSE = 'AC20-FZK-Haus.ifc';
const ABOUT_HOUSE = `model_file is ${HOUSE}, the Karlsruhe Institute of Technology's public IFC4 sample house.`;

/**
 * The door both by_scan examples use: AC20's first interior door (Innentuer-1) from its east side,
 * as `arsession inspect --json AC20-FZK-Haus.ifc` prints it (Y-up, the model's own frame).
 */
const DOOR = {
  viewer: '[9.65, 1.6, -5]',
  gaze: '[-2, -0.595, 0]',
  corners: '[[7.65, 0, -4.557], [7.65, 0, -5.443], [7.65, 2.01, -5.443], [7.65, 2.01, -4.557]]',
  wallNormal: '[1, 0, 0]',
};

/** The examples of each session endpoint, by its path under `/api/vision/v1/session/`. */
export const REQUEST_EXAMPLES: Readonly<Record<string, Record<string, RequestExample>>> = {
  by_plane: {
    house: {
      summary: 'A house on the floor',
      description: `${ABOUT_HOUSE} No key needed; with one the model is saved.`,
      value: { model_file: HOUSE },
    },
  },
  by_scan: {
    detected: {
      summary: 'Mode 1: the server finds the door the user looks at',
      description:
        `${ABOUT_HOUSE} The user stands 2 m east of the interior door Innentuer-1, ` +
        `eyes at 1.6 m, looking at its centre (numbers from arsession inspect).`,
      value: { model_file: HOUSE, 'alignment.point_1': DOOR.viewer, 'alignment.point_2': DOOR.gaze, 'alignment.coordinate_system': 'y-up' },
    },
    given: {
      summary: 'Mode 2: the client gives the door opening',
      description:
        `${ABOUT_HOUSE} The clear opening of Innentuer-1 on its east face, corners ` +
        `[BL, BR, TR, TL] as seen from the east, the wall normal pointing east.`,
      value: {
        model_file: HOUSE,
        'alignment.corners': DOOR.corners,
        'alignment.wall_normal': DOOR.wallNormal,
        'alignment.coordinate_system': 'y-up',
      },
    },
  },
  'by_virtual_anchor/circle-directional': {
    floor: {
      summary: 'A circle on the floor, the model facing −z',
      description: `${ABOUT_HOUSE} A 0.5 m circle drawn on the floor around the origin; the model's front looks along −z.`,
      value: {
        model_file: HOUSE,
        'virtual_anchor.center': '[0, 0, 0]',
        'virtual_anchor.radius': '0.5',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.direction': '[0, 0, -1]',
      },
    },
  },
  'by_virtual_anchor/rectangle-short-side': {
    table: {
      summary: 'A 0.6 × 1.2 m table top',
      description: `${ABOUT_HOUSE} A table top 0.75 m high, its short side along x.`,
      value: {
        model_file: HOUSE,
        'virtual_anchor.center': '[1, 0.75, -2]',
        'virtual_anchor.width': '0.6',
        'virtual_anchor.height': '1.2',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.short_side_direction': '[1, 0, 0]',
      },
    },
  },
  'by_virtual_anchor/corner-directional': {
    room: {
      summary: 'A room corner on the floor',
      description: `${ABOUT_HOUSE} The corner where two walls meet the floor; the edges run along +x and +z.`,
      value: {
        model_file: HOUSE,
        'virtual_anchor.corner': '[3, 0, -1]',
        'virtual_anchor.edge_1_direction': '[1, 0, 0]',
        'virtual_anchor.edge_2_direction': '[0, 0, 1]',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
      },
    },
  },
  'by_virtual_anchor/segment-directional': {
    wall: {
      summary: 'A segment along the foot of a wall',
      description: `${ABOUT_HOUSE} Two points on the floor along a wall, 2.2 m apart.`,
      value: {
        model_file: HOUSE,
        'virtual_anchor.segment_point_1': '[0, 0, 0]',
        'virtual_anchor.segment_point_2': '[2, 0, 1]',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.placement_source': 'model_surface',
      },
    },
  },
  by_refimage: {
    poster: {
      summary: 'An A3 poster on a wall',
      description: `${ABOUT_HOUSE} reference_image is a photo of the poster (PNG or JPEG), 0.42 m wide, hung at 1.5 m on a wall facing +z.`,
      value: {
        model_file: HOUSE,
        reference_image: 'poster.png',
        'reference_image.physical_width': '0.42',
        'reference_image.center': '[0, 1.5, -2]',
        'reference_image.normal': '[0, 0, 1]',
        'reference_image.up': '[0, 1, 0]',
      },
    },
  },
};
