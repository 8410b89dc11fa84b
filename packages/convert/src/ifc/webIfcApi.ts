import type { IfcAPI } from 'web-ifc';
import { loadWebIfc, saveWebIfcCodeCache } from './loadWebIfc.js';

let api: Promise<IfcAPI> | undefined;

/**
 * One web-ifc instance per thread: its WASM module takes ~25 ms to start and holds every open
 * model, so it starts once and models are closed after each read.
 */
export function webIfcApi(): Promise<IfcAPI> {
  api ??= (async () => {
    const { IfcAPI, LogLevel } = loadWebIfc();
    const instance = new IfcAPI();
    await instance.Init();
    // web-ifc logs to stdout, which would corrupt `--json` output and worker protocols.
    instance.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
    saveWebIfcCodeCache();
    return instance;
  })();
  return api;
}
