#!/usr/bin/env node
/**
 * Writes src/iso-locale-list.json: the locale codes the i18n plugin accepts, with
 * English names ("French (Canada) (fr-CA)"). Derived from the CLDR data ICU
 * ships with Node: a code is listed when ICU has locale data of its own for
 * it (a language, a language with a script, a region, or both). Run it with
 * a full-ICU Node when the list should be refreshed; the output is committed.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const letters = 'abcdefghijklmnopqrstuvwxyz';
const pairs = [...letters].flatMap((a) => [...letters].map((b) => a + b));
// ISO 639-2/3 languages with no two-letter code (fil, haw, ast, ckb, …).
const triples = pairs.flatMap((pair) => [...letters].map((c) => pair + c));
// UN M.49 areas (001 world, 419 Latin America, …) beside the ISO 3166 regions.
const areas = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none', languageDisplay: 'standard' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const SCRIPTS = ['Arab', 'Cyrl', 'Deva', 'Guru', 'Hans', 'Hant', 'Latn', 'Olck', 'Adlm', 'Mtei', 'Tfng', 'Vaii'];

/** ICU has data of its own for `tag` when it resolves to exactly that tag. */
const hasData = (tag) => {
  try {
    return new Intl.DateTimeFormat(tag).resolvedOptions().locale === tag;
  } catch {
    return false;
  }
};

const regions = [...pairs.map((pair) => pair.toUpperCase()), ...areas].filter((region) => {
  const name = regionNames.of(region);
  return name !== undefined && name !== region;
});
const languages = [...pairs, ...triples].filter((language) => {
  const name = languageNames.of(language);
  return name !== undefined && name !== language && hasData(language);
});

const codes = [];
for (const language of languages) {
  codes.push(language);
  for (const script of SCRIPTS) {
    const scripted = `${language}-${script}`;
    if (!hasData(scripted)) continue;
    codes.push(scripted);
    for (const region of regions) if (hasData(`${scripted}-${region}`)) codes.push(`${scripted}-${region}`);
  }
  for (const region of regions) if (hasData(`${language}-${region}`)) codes.push(`${language}-${region}`);
}
const list = codes.map((code) => ({ code, name: `${languageNames.of(code)} (${code})` }));
const file = path.join(__dirname, '..', 'src', 'iso-locale-list.json');
fs.writeFileSync(file, `${JSON.stringify(list, null, 0).replace(/\},\{/g, '},\n{')}\n`);
console.log(`${list.length} codes written to ${path.relative(process.cwd(), file)}`);
