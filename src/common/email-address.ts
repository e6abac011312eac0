/**
 * The one form an e-mail address is compared, looked up and keyed in (`users.email_normalized`, the login
 * lock, rate-limit counters, a self-pause kept after an erasure, a website form's address, self-referral
 * checks): without surrounding blanks, lower-cased, in Unicode NFC. Lower case alone let one address written
 * two ways ("é" as one character, or "e" and a combining accent, as some keyboards and clients send it) be two
 * accounts on one site, and with them two sets of responsible-play limits for one person. NFC last, since
 * lower-casing can leave a sequence that composes.
 */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase().normalize('NFC');
}
