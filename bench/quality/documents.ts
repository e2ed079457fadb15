/** Generators of realistic original documents (licenses, changelogs, READMEs, prose) for the quality corpus. */
import type { Rng } from './prng.ts';
import {
  ADJECTIVES,
  ADVERBS,
  CONJUNCTIONS,
  DETERMINERS,
  NOUNS,
  PREPOSITIONS,
  PRONOUNS,
  SYLLABLES,
  VERBS,
} from './vocabulary.ts';

/** A document as paragraphs; the text is the paragraphs joined by blank lines. */
export type Paragraphs = string[];

export type DocumentKind = 'license' | 'changelog' | 'readme' | 'prose';

/** Joins paragraphs into the file text. */
export function joinParagraphs(paragraphs: Paragraphs): string {
  return paragraphs.join('\n\n') + '\n';
}

/** A made-up proper name of 2-3 syllables. */
export function makeName(rng: Rng): string {
  let name = '';
  const n = rng.int(2, 3);
  for (let i = 0; i < n; i++) name += rng.pick(SYLLABLES);
  return name;
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A noun phrase: determiner, optional adjective, noun, sometimes a prepositional tail. */
function nounPhrase(rng: Rng, depth = 0): string {
  let s = rng.zipf(DETERMINERS, 1.2) + ' ';
  if (rng.chance(0.45)) s += rng.zipf(ADJECTIVES, 0.8) + ' ';
  s += rng.zipf(NOUNS, 0.7);
  if (depth === 0 && rng.chance(0.3)) s += ' ' + rng.zipf(PREPOSITIONS, 1.1) + ' ' + nounPhrase(rng, 1);
  return s;
}

/** One English-looking sentence from a small grammar over the vocabulary. */
export function sentence(rng: Rng, names: readonly string[] = []): string {
  const subject = names.length > 0 && rng.chance(0.15) ? capitalize(rng.pick(names)) : nounPhrase(rng);
  let s = subject;
  if (rng.chance(0.2)) s += ' ' + rng.zipf(ADVERBS, 0.9);
  s += ' ' + rng.zipf(VERBS, 0.8) + ' ' + nounPhrase(rng);
  if (rng.chance(0.35)) {
    s += ', ' + rng.zipf(CONJUNCTIONS, 1) + ' ' + rng.zipf(PRONOUNS, 1) + ' ' + rng.zipf(VERBS, 0.8) + ' ' + nounPhrase(rng);
  }
  return capitalize(s) + (rng.chance(0.08) ? '?' : '.');
}

/** A paragraph of `sentences` sentences. */
export function paragraph(rng: Rng, sentences: number, names: readonly string[] = []): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng, names));
  return out.join(' ');
}

/** Prose: an essay or story, `targetWords` long, in paragraphs of 3-9 sentences. */
export function prose(rng: Rng, targetWords: number): Paragraphs {
  const names = [makeName(rng), makeName(rng), makeName(rng)];
  const paragraphs: Paragraphs = [capitalize(rng.pick(ADJECTIVES)) + ' ' + rng.pick(NOUNS) + ' of ' + capitalize(names[0]!)];
  let words = 0;
  while (words < targetWords) {
    const p = paragraph(rng, rng.int(3, 9), names);
    words += p.split(/\s+/).length;
    paragraphs.push(p);
  }
  return paragraphs;
}

const LEGAL_VERBS = ['use', 'copy', 'modify', 'distribute', 'sublicense', 'sell', 'display', 'perform', 'reproduce', 'publish', 'prepare', 'license', 'transfer', 'retain', 'include'];

/** A license-like text: title, grant, numbered sections of legal sentences, disclaimer. */
export function license(rng: Rng, targetWords: number): Paragraphs {
  const holder = capitalize(makeName(rng)) + ' ' + capitalize(makeName(rng));
  const product = capitalize(makeName(rng));
  const year = rng.int(1995, 2026);
  const paragraphs: Paragraphs = [
    `${product.toUpperCase()} ${rng.pick(['PUBLIC', 'COMMUNITY', 'OPEN', 'SOURCE'])} LICENSE`,
    `Version ${rng.int(1, 4)}.${rng.int(0, 9)}, ${rng.pick(['January', 'March', 'June', 'September', 'November'])} ${year}`,
    `Copyright (c) ${year} ${holder}. Everyone is permitted to copy and distribute verbatim copies of this license document, but changing it is not allowed.`,
  ];
  const legal = (): string => {
    const subject = rng.pick(['the Licensor', 'each Contributor', 'You', 'the Recipient', 'any Licensee', `${product}`]);
    const verb = rng.pick(['grants', 'may not', 'shall', 'must', 'agrees to', 'is not required to', 'hereby disclaims']);
    return `${subject} ${verb} ${rng.zipf(LEGAL_VERBS, 0.8)} ${nounPhrase(rng)} ${rng.zipf(PREPOSITIONS, 1)} ${nounPhrase(rng)}` +
      (rng.chance(0.5) ? `, provided that ${nounPhrase(rng)} ${rng.zipf(VERBS, 0.7)} ${nounPhrase(rng)}` : '') +
      (rng.chance(0.3) ? `, subject to the terms and conditions of this License` : '') + '.';
  };
  let words = paragraphs.join(' ').split(/\s+/).length;
  let section = 0;
  while (words < targetWords) {
    section++;
    const title = `${section}. ${capitalize(rng.pick(['Definitions', 'Grant of Copyright License', 'Grant of Patent License', 'Redistribution', 'Submission of Contributions', 'Trademarks', 'Disclaimer of Warranty', 'Limitation of Liability', 'Termination', 'Governing Law', 'Miscellaneous']))}.`;
    const body: string[] = [];
    const n = rng.int(2, 6);
    for (let i = 0; i < n; i++) body.push(legal());
    const p = `${title} ${body.join(' ')}`;
    words += p.split(/\s+/).length;
    paragraphs.push(p);
  }
  paragraphs.push(`END OF TERMS AND CONDITIONS. ${holder.toUpperCase()} PROVIDES THE WORK ON AN "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.`);
  return paragraphs;
}

/** A changelog: releases newest first, each with Added / Fixed / Changed bullet lists. */
export function changelog(rng: Rng, targetWords: number): Paragraphs {
  const project = makeName(rng);
  const paragraphs: Paragraphs = [
    `# Changelog`,
    `All notable changes to ${project} are documented in this file. The format follows Keep a Changelog and the project uses semantic versioning.`,
  ];
  let major = rng.int(1, 5);
  let minor = rng.int(0, 30);
  let patch = rng.int(0, 9);
  let year = 2026;
  let month = rng.int(1, 12);
  let words = 30;
  while (words < targetWords) {
    const lines = [`## [${major}.${minor}.${patch}] - ${year}-${String(month).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`];
    for (const heading of ['Added', 'Fixed', 'Changed', 'Removed']) {
      if (!rng.chance(heading === 'Fixed' ? 0.8 : 0.5)) continue;
      lines.push(`### ${heading}`);
      const items = rng.int(1, 5);
      for (let i = 0; i < items; i++) {
        const verb = heading === 'Fixed' ? rng.pick(['Fix', 'Handle', 'Avoid', 'Correct']) : heading === 'Added' ? rng.pick(['Add', 'Support', 'Expose', 'Introduce']) : heading === 'Removed' ? rng.pick(['Remove', 'Drop']) : rng.pick(['Change', 'Rename', 'Speed up', 'Update']);
        lines.push(`- ${verb} ${nounPhrase(rng)} ${rng.pick(['when', 'in', 'for', 'so that', 'after'])} ${nounPhrase(rng)} ${rng.zipf(VERBS, 0.8)} ${nounPhrase(rng)} (#${rng.int(10, 9999)}).`);
      }
    }
    const p = lines.join('\n');
    words += p.split(/\s+/).length;
    paragraphs.push(p);
    if (patch > 0 && rng.chance(0.7)) patch--;
    else if (minor > 0) { minor--; patch = rng.int(0, 6); }
    else { major = Math.max(0, major - 1); minor = rng.int(5, 20); }
    month--;
    if (month === 0) { month = 12; year--; }
  }
  return paragraphs;
}

/** A README: title, badges line, description, install, usage with code, options list, license. */
export function readme(rng: Rng, targetWords: number): Paragraphs {
  const project = makeName(rng);
  const names = [project, makeName(rng)];
  const paragraphs: Paragraphs = [
    `# ${project}`,
    `${capitalize(project)} is a ${rng.zipf(ADJECTIVES, 0.8)} ${rng.pick(['library', 'tool', 'framework', 'command line tool', 'service'])} for ${nounPhrase(rng)}. ${paragraph(rng, rng.int(2, 4), names)}`,
    `## Installation\n\n\`\`\`sh\nnpm install ${project}\n\`\`\`\n\n${paragraph(rng, rng.int(1, 3), names)}`,
  ];
  let words = paragraphs.join(' ').split(/\s+/).length;
  const sections = ['Usage', 'Options', 'Configuration', 'Examples', 'API', 'How it works', 'Performance', 'FAQ', 'Troubleshooting'];
  let s = 0;
  while (words < targetWords) {
    const title = sections[s % sections.length]! + (s >= sections.length ? ` (${Math.floor(s / sections.length) + 1})` : '');
    s++;
    let p = `## ${title}\n\n${paragraph(rng, rng.int(2, 6), names)}`;
    if (rng.chance(0.4)) {
      const fn = rng.pick(['load', 'parse', 'render', 'create', 'open', 'scan']) + capitalize(rng.zipf(NOUNS, 0.7));
      p += `\n\n\`\`\`js\nimport { ${fn} } from '${project}';\nconst result = await ${fn}(${rng.pick(['options', 'input', 'path', 'config'])});\n\`\`\``;
    }
    if (rng.chance(0.4)) {
      const items = rng.int(2, 6);
      for (let i = 0; i < items; i++) p += `\n- \`${rng.zipf(NOUNS, 0.7)}\`: ${sentence(rng, names)}`;
    }
    words += p.split(/\s+/).length;
    paragraphs.push(p);
  }
  paragraphs.push(`## License\n\n${rng.pick(['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC'])} © ${capitalize(makeName(rng))} ${capitalize(makeName(rng))}`);
  return paragraphs;
}

/** An original document of the given kind and approximate length. */
export function originalDocument(rng: Rng, kind: DocumentKind, targetWords: number): Paragraphs {
  switch (kind) {
    case 'license': return license(rng, targetWords);
    case 'changelog': return changelog(rng, targetWords);
    case 'readme': return readme(rng, targetWords);
    case 'prose': return prose(rng, targetWords);
  }
}

/** A short note (a commit message, a ticket, a snippet): one paragraph of about `words` words. */
export function shortDocument(rng: Rng, words: number): Paragraphs {
  const names = [makeName(rng)];
  let text = '';
  while (text.split(/\s+/).length < words) text += (text ? ' ' : '') + sentence(rng, names);
  return [text.split(/\s+/).slice(0, words).join(' ')];
}
