import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { readIfc } from '../src/index.js';
import { builtScript } from '../src/io/builtScript.js';
import { readSharedFile, readSharedFileAsync, sharedFrom } from '../src/io/readSharedFile.js';
import { checkStepSyntax } from '../src/ifc/checkStepSyntax.js';
import { StepEntityOffsets } from '../src/ifc/StepEntityOffsets.js';
import { StepSyntaxCheck } from '../src/ifc/StepSyntaxCheck.js';
import { CORPUS_DIR, corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { zipArchive } from '../../../test/support/zipArchive.js';

/** `bytes` copied into memory threads share, as a conversion reads the file it is given by path. */
const shared = (bytes: Uint8Array) => sharedFrom(bytes, 0);
const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const house = () => new TextDecoder('latin1').decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
const minimal = (data: string) =>
  latin1(
    "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('x','',(''),(''),'','','');\n" +
      `FILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n${data}\nENDSEC;\nEND-ISO-10303-21;\n`,
  );
/** What web-ifc must not be handed, each as checkStepSyntax names it. */
const unsound: Array<[string, () => Uint8Array, RegExp]> = [
  ['unbalanced parentheses', () => minimal('#1=IFCWALL(((((;'), /entity #1 has 5 unclosed parentheses/],
  [
    'an id past 32 bits',
    () => latin1(house().replace('#40=IFCWALLSTANDARDCASE', '#99999999999999999=IFCWALLSTANDARDCASE')),
    /out of range/,
  ],
  ['a bare word', () => latin1(house().replace("'MappedRepresentation',(", "'MappedRepresentation'X2,(")), /"X2" where a value belongs/],
  ['a dot after a reference', () => latin1(house().replace(/(#40=IFCWALLSTANDARDCASE\('[^']*',#5)/, '$1.')), /where a reference belongs/],
  ['a string that never ends', () => minimal("#1=IFCPROJECT('open,$,$,$,$,$,$,$,$);"), /never ends/],
  ['binary garbage', () => minimal('\u0000\u0001\u00ff'.repeat(500)), /expected an entity instance/],
];

describe('StepSyntaxCheck', () => {
  it('checks in this thread, done on return, below its size or for bytes not in shared memory', async () => {
    const bytes = corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc');
    for (const check of [StepSyntaxCheck.start(shared(bytes)), StepSyntaxCheck.start(bytes, { besideFromBytes: 0 })]) {
      expect(check.settled?.problem).toBeUndefined();
      expect(await check.result()).toBe(check.settled);
    }
  });

  it.each(corpusFiles('ifc').filter((f) => f.endsWith('.ifc')))(
    'on a helper thread, finds every entity where this thread would (%s)',
    async (name) => {
      const bytes = shared(corpusBytes('ifc', name));
      const check = StepSyntaxCheck.start(bytes, { besideFromBytes: 0 });
      // Not settled on return: the helper walks the file while this thread goes on.
      expect(check.settled).toBeUndefined();
      const { problem, offsets } = await check.result();
      check.cancel();
      const here = new StepEntityOffsets();
      expect(checkStepSyntax(bytes, {}, here)).toBe(problem);
      expect(problem).toBeUndefined();
      const ids = new Set<number>();
      for (let id = 0; id < 5000; id++) {
        expect(offsets.offsetOf(id)).toBe(here.offsetOf(id));
        if (here.offsetOf(id) >= 0) ids.add(id);
      }
      expect(ids.size).toBeGreaterThan(10);
    },
  );

  it.each(unsound)('on a helper thread, names what web-ifc must not be handed as this thread does: %s', async (_what, bytes, problem) => {
    const check = StepSyntaxCheck.start(shared(bytes()), { besideFromBytes: 0 });
    const verdict = await check.result();
    check.cancel();
    expect(verdict.problem).toMatch(problem);
    expect(verdict.problem).toBe(checkStepSyntax(bytes()));
  });
});

describe('readIfc with its STEP check beside web-ifc', () => {
  it.each(unsound)('refuses %s by name, at once, as a check before web-ifc does', async (_what, bytes, problem) => {
    const started = Date.now();
    const beside = readIfc(shared(bytes()), { fileName: 'x.ifc', checkBesideFromBytes: 0 });
    await expect(beside).rejects.toThrow(problem);
    const before = await readIfc(bytes(), { fileName: 'x.ifc' }).catch((err: Error) => err.message);
    await expect(beside).rejects.toThrow(before as string);
    // web-ifc spins on some of these until a conversion's deadline: the refusal came from the check.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('reads a sound file into the same scene either way', async () => {
    const bytes = corpusBytes('ifc', 'AC20-FZK-Haus.ifc');
    const [beside, before] = await Promise.all([
      readIfc(shared(bytes), { fileName: 'a.ifc', checkBesideFromBytes: 0 }),
      readIfc(bytes, { fileName: 'a.ifc' }),
    ]);
    expect(beside.stats).toEqual(before.stats);
    expect(beside.nodes.map((n) => n.name)).toEqual(before.nodes.map((n) => n.name));
    expect(
      beside.meshes.map((m) => Buffer.from(m.positions.buffer, m.positions.byteOffset, m.positions.byteLength).toString('base64')),
    ).toEqual(before.meshes.map((m) => Buffer.from(m.positions.buffer, m.positions.byteOffset, m.positions.byteLength).toString('base64')));
    expect(beside.doorOpenings).toEqual(before.doorOpenings);
  });
});

describe('readIfc of an .ifczip, its IFC checked beside web-ifc as a plain file is', () => {
  const zipped = (bytes: Uint8Array) => zipArchive([{ name: 'model/x.ifc', data: bytes, deflate: true }]);
  /** The bytes `StepSyntaxCheck.start` was given by a read of `run`. */
  const checked = async (run: () => Promise<unknown>) => {
    const start = vi.spyOn(StepSyntaxCheck, 'start');
    try {
      await run().catch(() => undefined);
      return start.mock.calls.map(([bytes]) => bytes);
    } finally {
      start.mockRestore();
    }
  };

  it.each(unsound)('refuses %s by name, the unpacked IFC in shared memory', async (_what, bytes, problem) => {
    await expect(readIfc(zipped(bytes()), { fileName: 'x.ifczip', checkBesideFromBytes: 0 })).rejects.toThrow(problem);
    const given = await checked(() => readIfc(zipped(bytes()), { fileName: 'x.ifczip', checkBesideFromBytes: 0 }));
    expect(given).toHaveLength(1);
    expect(given[0]!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(Buffer.from(given[0]!), Buffer.from(bytes()))).toBe(0);
  });

  it("reads a sound one into the unpacked file's scene; below the size, its IFC is checked where it was unpacked", async () => {
    const bytes = corpusBytes('ifc', 'AC20-FZK-Haus.ifc');
    const beside = await readIfc(zipped(bytes), { fileName: 'a.ifczip', checkBesideFromBytes: 0 });
    const plain = await readIfc(bytes, { fileName: 'a.ifc' });
    expect(beside.stats).toEqual(plain.stats);
    expect(beside.doorOpenings).toEqual(plain.doorOpenings);
    const [given] = await checked(() => readIfc(zipped(bytes), { fileName: 'a.ifczip' }));
    expect(given!.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(given!.length).toBe(bytes.length);
  });
});

describe('StepEntityOffsets as data', () => {
  it('answers every lookup as the offsets it came from, whatever the ids (dense, sparse, out of order)', () => {
    const id = fc.oneof(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 2 ** 40 }));
    fc.assert(
      fc.property(fc.array(fc.record({ id, offset: fc.integer({ min: 0, max: 2 ** 34 }) }), { maxLength: 300 }), (entities) => {
        const offsets = new StepEntityOffsets();
        for (const e of entities) offsets.add(e.id, e.offset);
        const data = structuredClone(offsets.toData());
        const back = StepEntityOffsets.fromData(data);
        for (const e of [...entities, { id: 7, offset: 0 }, { id: 2 ** 40 + 1, offset: 0 }])
          expect(back.offsetOf(e.id)).toBe(offsets.offsetOf(e.id));
      }),
    );
  });
});

describe('readSharedFile and builtScript', () => {
  it('reads a file into memory threads can share, byte for byte', () => {
    const path = join(CORPUS_DIR, 'ifc', 'AC20-FZK-Haus.ifc');
    const bytes = readSharedFile(path);
    expect(bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(Buffer.from(bytes), readFileSync(path))).toBe(0);
  });

  it('reads a file so asynchronously too, byte for byte; a missing one rejects by its code', async () => {
    const path = join(CORPUS_DIR, 'ifc', 'AC20-FZK-Haus.ifc');
    const bytes = await readSharedFileAsync(path);
    expect(bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(Buffer.from(bytes), readFileSync(path))).toBe(0);
    await expect(readSharedFileAsync(join(CORPUS_DIR, 'ifc', 'no-such.ifc'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('puts bytes in shared memory from a size on, as a copy; leaves smaller ones and shared ones as they are', () => {
    const bytes = corpusBytes('ifc', 'AC20-FZK-Haus.ifc');
    const copy = sharedFrom(bytes, bytes.length);
    expect(copy.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(Buffer.from(copy), Buffer.from(bytes))).toBe(0);
    expect(sharedFrom(bytes, bytes.length + 1)).toBe(bytes);
    expect(sharedFrom(copy, 0)).toBe(copy);
  });

  it.each([
    ['file:///x/packages/convert/src/ifc/StepSyntaxCheck.ts', 'file:///x/packages/convert/dist/ifc/stepSyntaxHelper.js'],
    ['file:///x/packages/convert/dist/ifc/StepSyntaxCheck.js', 'file:///x/packages/convert/dist/ifc/stepSyntaxHelper.js'],
    ['file:///x/packages/convert/dist/bundle/chunks/chunk-AB12.js', 'file:///x/packages/convert/dist/ifc/stepSyntaxHelper.js'],
  ])('finds the built script from %s', (from, url) => {
    expect(builtScript('ifc/stepSyntaxHelper.js', from).href).toBe(url);
  });
});

// What the check beside web-ifc relies on: web-ifc's parse (OpenModel) only tokenizes, and returns
// on any bytes, so a file the check refuses never holds this thread; its later reading is what
// spins or mangles. Each parse runs in a thread of its own, ended if it overruns.
const PARSER = `
const { parentPort, workerData } = require('node:worker_threads');
const W = require('node:module').createRequire(workerData.from)('web-ifc');
const api = new W.IfcAPI();
api.Init().then(() => {
  api.SetLogLevel(W.LogLevel.LOG_LEVEL_OFF);
  parentPort.on('message', (bytes) => {
    let model = -1;
    try { model = api.OpenModel(bytes, { COORDINATE_TO_ORIGIN: false }); } catch {}
    if (model >= 0) api.CloseModel(model);
    parentPort.postMessage(model);
  });
  parentPort.postMessage('ready');
});
`;

describe("web-ifc's parse, before the check has passed", () => {
  it('returns on any bytes: a sound file cut, spliced and salted with STEP punctuation', async () => {
    const from = fileURLToPath(new URL('../package.json', import.meta.url));
    let parser = new Worker(PARSER, { eval: true, workerData: { from } });
    const next = () => new Promise<unknown>((resolve) => parser.once('message', resolve));
    await next();
    const parse = async (bytes: Uint8Array): Promise<boolean> => {
      const answer = next();
      parser.postMessage(bytes);
      const timer = new Promise<'overran'>((resolve) => setTimeout(resolve, 10_000, 'overran').unref());
      if ((await Promise.race([answer, timer])) !== 'overran') return true;
      await parser.terminate();
      parser = new Worker(PARSER, { eval: true, workerData: { from } });
      await next();
      return false;
    };
    const sound = house();
    const edit = fc.record({
      at: fc.nat({ max: sound.length - 1 }),
      cut: fc.nat({ max: 64 }),
      put: fc.array(
        fc.constantFrom('(', ')', "'", '"', '#', '=', ';', '.', '$', '*', '/*', '*/', '\\', 'X2', '\u0000', '99999999999999999'),
        {
          maxLength: 8,
        },
      ),
    });
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 4 }), async (edits) => {
          let text = sound;
          for (const e of edits) text = text.slice(0, e.at) + e.put.join('') + text.slice(e.at + e.cut);
          expect(await parse(latin1(text))).toBe(true);
        }),
        { numRuns: 200, seed: 50 },
      );
    } finally {
      await parser.terminate();
    }
  }, 120_000);
});
