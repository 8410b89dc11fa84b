import { WARNING_CODES, type WarningCode } from '@arsession/convert';

/** Warnings the server itself adds to a delivered model (beside the conversion's, {@link WARNING_CODES}). */
export const SERVER_WARNING_CODES = {
  reality_failed: 'the configured Reality compiler (ARSESSION_REALITY_COMPILER) failed on this model; it is offered as USDZ only',
} as const;

/** Every code an asset's warnings can carry, with what it means: the OpenAPI enum. */
export const ASSET_WARNING_CODES: Readonly<Record<AssetWarningCode, string>> = { ...WARNING_CODES, ...SERVER_WARNING_CODES };

/** A code an asset's warning carries. */
export type AssetWarningCode = WarningCode | keyof typeof SERVER_WARNING_CODES;

/** One warning of a delivered model, as the detail record lists it. */
export interface AssetWarning {
  code: AssetWarningCode;
  message: string;
}
