/** The word lists the quality corpus is written from: plain English, software terms and legal phrasing. */

const list = (words: string): readonly string[] => words.trim().split(/\s+/);

/** Function words, most frequent first (sampled with Zipf weights). */
export const DETERMINERS = list(`the a this each every any no some that another its their our your`);
export const PREPOSITIONS = list(`of in to for with on by from at into over under after before between through during without within about against across`);
export const CONJUNCTIONS = list(`and or but so because while although unless when if`);
export const PRONOUNS = list(`it we you they he she one this`);

/** Content words, roughly most frequent first. */
export const NOUNS = list(`
  time system file user data program work people world way year day part place case
  number group problem fact hand point government company question room area money story
  month lot right study book eye job word business issue side kind head house service
  friend father power hour game line end member law car city community name president team
  minute idea kid body information back parent face others level office door health person art
  war history party result change morning reason research girl guy moment air teacher force
  education foot boy age policy process music market sense nation plan college interest death
  experience effect use class control care field development role effort rate heart drug show
  leader light voice wife police mind price report decision son view relationship town road
  arm difference value building action model season society tax director position player record
  paper space ground form event official matter center couple site project activity star table
  need court oil situation cost industry figure street image phone data picture practice piece
  land product doctor wall patient worker news test movie north love support technology step
  baby computer type attention film tree source organization hair window evidence population
  garden river harbour valley bridge mountain island forest village kitchen letter journey
  window candle engine signal library network server client browser module package function
  request response buffer stream record column table index query cache thread worker queue
  message channel socket token parser compiler plugin option setting variable argument
  interface method object array string number pointer handler listener callback promise
  license copyright notice permission warranty liability damages software distribution
  contributor holder author term condition clause section agreement provision jurisdiction
  release version feature bug fix regression dependency update migration deprecation
  documentation example tutorial guide command terminal script config directory path
`);
export const VERBS = list(`
  is was has makes takes uses finds gives tells works calls tries needs feels becomes leaves
  puts means keeps lets begins seems helps shows hears plays runs moves lives believes brings
  holds writes provides stands loses pays meets includes continues sets learns changes leads
  understands watches follows stops creates speaks reads allows adds spends grows opens walks
  wins offers remembers considers appears buys waits serves dies sends expects builds stays
  falls cuts reaches kills remains suggests raises passes sells requires reports decides pulls
  returns explains hopes develops carries breaks receives agrees supports hits produces eats
  covers catches draws chooses causes points listens realizes places closes involves increases
  parses loads stores renders caches validates compiles installs configures exports imports
  handles emits resolves rejects throws logs prints reads writes fetches merges sorts filters
  grants permits restricts distributes modifies sublicenses disclaims limits excludes governs
`);
export const ADJECTIVES = list(`
  other new good high old great big american small large national young different black long
  little important political bad white real best right social only public sure low early able
  human local late hard major better economic strong possible whole free military true federal
  international full special easy clear recent certain personal open red difficult available
  likely short single medical current wrong private past foreign fine common poor natural
  significant similar hot dead central happy serious ready simple left physical general
  environmental financial blue democratic dark various entire close legal religious cold final
  main green nice huge popular traditional cultural quiet gentle bright narrow ancient empty
  quick slow careful silent distant warm broken hidden steady
  default optional required invalid empty internal external asynchronous synchronous deprecated
  experimental stable unstable minor patch breaking initial faster smaller safer incremental
  express implied applicable written exclusive perpetual worldwide royalty-free irrevocable
`);
export const ADVERBS = list(`
  also very often however too usually really early never always sometimes together likely simply
  generally instead actually again rather almost especially ever quickly probably already below
  directly therefore else thus easily eventually exactly certainly normally currently extremely
  finally constantly properly soon specifically ahead daily highly immediately relatively slowly
  fairly primarily completely ultimately widely recently entirely
`);

/** Syllables for made-up project, person and place names (no real names needed). */
export const SYLLABLES = list(`
  ka lo mi ra ven tor sil an dre bel cor fin gal har is jun kel lum mor nox pel quin ros sta
  tel ur vin wex yar zen bro cla dun elm fro gri hol ix jas kor lin mab nel or pra quo rix sev
  tur ul vor wyn xan yel zor
`);

/** Lines that many unrelated files share (license headers, generated-file notices). */
export const BOILERPLATE_LINES: readonly string[] = [
  'This file is part of the project and is distributed under the terms described in the license file.',
  'Generated automatically. Do not edit this file by hand; edit the template and regenerate it instead.',
  'All rights reserved. Unauthorized copying of this file, via any medium, is strictly prohibited.',
  'Licensed under the Apache License, Version 2.0; you may not use this file except in compliance with the License.',
  'Permission is hereby granted, free of charge, to any person obtaining a copy of this software.',
  'THE SOFTWARE IS PROVIDED AS IS, WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.',
  'For questions about this document, contact the maintainers through the issue tracker.',
  'Please read the contributing guide before opening a pull request.',
];
