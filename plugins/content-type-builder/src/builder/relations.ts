/**
 * How the builder turns the panel's attributes into schema attributes, and what it writes on a relation's other
 * side, as Strapi 4.26.2's schema builder does (its `convertAttributes` and `generateRelation`): the panel sends a
 * relation's other side as `targetAttribute` (and `dominant` for the two symmetric kinds); the schema keeps
 * `inversedBy` / `mappedBy`.
 */
export type RawAttribute = Record<string, unknown>;

/** Strapi's `isConfigurable`: an attribute the builder may change (not `configurable: false`). */
export const isConfigurable = (attribute: RawAttribute | undefined): boolean => attribute?.configurable !== false;

/** A relation kind's other side: what the target's attribute becomes, and which key names this side. */
const OTHER_SIDE: Record<string, (dominant: boolean) => { relation: string; key: 'mappedBy' | 'inversedBy' }> = {
  oneToOne: (dominant) => ({ relation: 'oneToOne', key: dominant ? 'mappedBy' : 'inversedBy' }),
  oneToMany: () => ({ relation: 'manyToOne', key: 'inversedBy' }),
  manyToOne: () => ({ relation: 'oneToMany', key: 'mappedBy' }),
  manyToMany: (dominant) => ({ relation: 'manyToMany', key: dominant ? 'mappedBy' : 'inversedBy' }),
};

/** One attribute as written in the schema file (a key whose value is undefined is not written: JSON drops it). */
export function convertAttribute(attribute: RawAttribute): RawAttribute {
  const privacy = { private: attribute.private === true ? true : undefined, configurable: attribute.configurable === false ? false : undefined };
  if (attribute.type !== 'relation') return { ...attribute, ...privacy };
  const { target, relation, targetAttribute, dominant, ...rest } = attribute;
  const converted: RawAttribute = { type: 'relation', relation, target, ...rest, ...privacy };
  if (targetAttribute === undefined || targetAttribute === null) return converted;
  const symmetric = relation === 'oneToOne' || relation === 'manyToMany';
  if (symmetric && dominant === true) converted.inversedBy = targetAttribute;
  else if (symmetric && dominant === false) converted.mappedBy = targetAttribute;
  else if (relation === 'oneToOne' || relation === 'manyToOne' || relation === 'manyToMany') converted.inversedBy = targetAttribute;
  else if (relation === 'oneToMany') converted.mappedBy = targetAttribute;
  return converted;
}

/**
 * The target's attribute for a relation declared on `uid` under `key` (`dominant`: the panel's flag, true for a
 * new symmetric relation); `existing` is the target's attribute of that name, whose `autoPopulate`, `private` and
 * `pluginOptions` it keeps. Undefined for a kind without another side (morphs).
 */
export function otherSide(key: string, attribute: RawAttribute, uid: string, existing: RawAttribute | undefined): RawAttribute | undefined {
  const side = OTHER_SIDE[String(attribute.relation)]?.(attribute.dominant === true);
  if (!side) return undefined;
  return {
    type: 'relation',
    relation: side.relation,
    target: uid,
    autoPopulate: existing?.autoPopulate,
    private: existing?.private || undefined,
    pluginOptions: existing?.pluginOptions || undefined,
    [side.key]: key,
  };
}

/** The other side's attribute name a relation names in the schema. */
export function otherSideName(attribute: RawAttribute): string | undefined {
  const name = attribute.inversedBy ?? attribute.mappedBy;
  return typeof name === 'string' ? name : undefined;
}
