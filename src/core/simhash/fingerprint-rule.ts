/**
 * The version of the rule that turns text into features (tokenization, normalization, hashing): a
 * saved corpus records the rule its fingerprints were made with, and fingerprints of two rules are
 * never compared (storage/fingerprint-rule.ts says what a saved corpus of another rule needs).
 *
 * 1: words split at `_` and other connector punctuation (before issue #29).
 * 2: words follow Unicode's word rules (UAX #29): connector punctuation (ExtendNumLet) joins a word,
 *    so `pip_cache` is one word (core/text/char-class.ts).
 */
export const FINGERPRINT_RULE = 2;

/** The rule of a saved corpus that recorded none: everything saved before the rule was stamped. */
export const UNSTAMPED_RULE = 1;
