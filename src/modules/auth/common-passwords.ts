import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The ~49,000 most common passwords, from a maintained list (zxcvbn-ts). Compared lower-cased.
 * Loaded once; about 1 MB in memory.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  dictionary['passwords-common'].map((p) => p.toLowerCase()),
);
