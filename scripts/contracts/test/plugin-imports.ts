/**
 * The static half of the plugin contract check: what a plugin's source may
 * import and look up. A plugin uses another only through that plugin's
 * package entry (`@tessera/plugin-graphql`, types and exported constants), and
 * only a plugin it declares in `dependencies` or `optionalDependencies`. The
 * boot half (a missing required dependency stops the boot) is the kernel's
 * `dependencyOrder`.
 */
import path from 'node:path';

export interface PluginUnderCheck {
  /** The plugin's name (`users-permissions`). */
  name: string;
  /** Its package (`@tessera/plugin-users-permissions`). */
  packageName: string;
  /** Its folder; its sources are under `<dir>/src`. */
  dir: string;
  /** `dependencies` and `optionalDependencies` of its declaration. */
  declared: string[];
  /** Packages its package.json lists (dependencies, peerDependencies). */
  packageDependencies: string[];
}

export interface Violation {
  file: string;
  line: number;
  message: string;
}

export const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
const PLUGIN_LOOKUP = /\.plugin\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Everything wrong in one source file of `plugin`. */
export function checkPluginFile(plugin: PluginUnderCheck, file: string, text: string, all: PluginUnderCheck[]): Violation[] {
  const violations: Violation[] = [];
  const byPackage = new Map(all.map((other) => [other.packageName, other]));
  const names = new Set(all.map((other) => other.name));
  const at = (index: number) => text.slice(0, index).split('\n').length;
  const report = (index: number, message: string) => violations.push({ file, line: at(index), message });
  const uses = (other: string, index: number, how: string) => {
    if (other !== plugin.name && !plugin.declared.includes(other)) report(index, `${plugin.name} ${how} plugin "${other}" without declaring it in dependencies or optionalDependencies`);
  };

  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1];
    const index = match.index ?? 0;
    if (specifier.startsWith('.')) {
      const target = path.resolve(path.dirname(file), specifier);
      if (!isInside(target, path.join(plugin.dir, 'src'))) report(index, `${plugin.name} imports ${specifier}, a file outside its own sources`);
      continue;
    }
    const owner = [...byPackage.keys()].find((name) => specifier === name || specifier.startsWith(`${name}/`));
    if (!owner) continue;
    const other = byPackage.get(owner)!;
    if (specifier !== owner) report(index, `${plugin.name} imports ${specifier}, an internal file of plugin "${other.name}" (use its package entry)`);
    uses(other.name, index, 'imports');
    if (other.name !== plugin.name && !plugin.packageDependencies.includes(owner)) report(index, `${plugin.name} imports ${owner}, which its package.json does not list`);
  }
  for (const match of text.matchAll(PLUGIN_LOOKUP)) {
    if (names.has(match[1])) uses(match[1], match.index ?? 0, 'looks up');
  }
  return violations;
}

function isInside(target: string, dir: string): boolean {
  const relative = path.relative(dir, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
