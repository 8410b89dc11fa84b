/**
 * The session id at the end of a deep link (`arsession://session/<id>`), which the detail record,
 * its files and the session page are addressed by.
 *
 * @example
 * ```ts
 * sessionIdOf('arsession://session/3q2-7wEjS0mZ1T2V0X9dQg'); // '3q2-7wEjS0mZ1T2V0X9dQg'
 * ```
 */
export function sessionIdOf(deeplink: string): string {
  const id = /\/([A-Za-z0-9_-]{22})\/?$/.exec(deeplink)?.[1];
  if (!id) throw new TypeError(`not an arsession deep link: ${deeplink}`);
  return id;
}
