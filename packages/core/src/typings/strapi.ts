/**
 * The types that Strapi v4's generated files import from `@strapi/strapi`
 * (`import type { Schema, Attribute } from '@strapi/strapi'` in
 * `types/generated/contentTypes.d.ts`), so those files — written by
 * `tessera ts:generate-types` or by Strapi itself — compile against Tessera
 * unchanged. A new app's tsconfig maps `@strapi/strapi` and `@strapi/types`
 * here (`paths`). Types only: nothing of this is emitted as JavaScript.
 *
 * Each attribute type records what the schema said (kind, relation target,
 * component, enum values, required), which is what `GetValues` reads to type
 * an entry and what the typed entity service reads to check filters.
 */
import type { Shared } from './registry';

export type { Shared } from './registry';
export type { Common } from './registry';

type Kind =
  | 'string' | 'text' | 'richtext' | 'email' | 'password' | 'date' | 'time' | 'datetime' | 'timestamp'
  | 'integer' | 'biginteger' | 'float' | 'decimal' | 'uid' | 'enumeration' | 'boolean' | 'json'
  | 'media' | 'relation' | 'component' | 'dynamiczone' | 'blocks';

type RelationKindName =
  | 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany' | 'oneWay' | 'manyWay'
  | 'morphToOne' | 'morphToMany' | 'morphOne' | 'morphMany';

/** A literal value as the generator writes it into a type (`DefaultTo<'draft'>`, `SetPluginOptions<{…}>`). */
type Literal = string | number | boolean | null | undefined | readonly unknown[] | object;

// eslint-disable-next-line @typescript-eslint/no-namespace
export namespace Attribute {
  export interface OfType<T extends Kind> {
    type: T;
  }
  export type Any = OfType<Kind>;

  export type String = OfType<'string'>;
  export type Text = OfType<'text'>;
  export type RichText = OfType<'richtext'>;
  export type Email = OfType<'email'>;
  export type Password = OfType<'password'>;
  export type Date = OfType<'date'>;
  export type Time = OfType<'time'>;
  export type DateTime = OfType<'datetime'>;
  export type Timestamp = OfType<'timestamp'>;
  export type Integer = OfType<'integer'>;
  export type BigInteger = OfType<'biginteger'>;
  export type Float = OfType<'float'>;
  export type Decimal = OfType<'decimal'>;
  export type Boolean = OfType<'boolean'>;
  export type JSON = OfType<'json'>;
  export type Blocks = OfType<'blocks'>;
  export type UID<_Origin extends string | undefined = undefined, _TargetField extends string | undefined = undefined, _Options extends Literal = undefined> = OfType<'uid'>;
  export type Enumeration<Values extends readonly string[] = string[]> = OfType<'enumeration'> & { enum: Values };
  export type Media<_AllowedTypes extends string | undefined = undefined, Multiple extends boolean = false> = OfType<'media'> & { multiple: Multiple };
  export type Relation<_Origin extends string = string, Relation extends RelationKindName = RelationKindName, Target extends string = string> = OfType<'relation'> & {
    relation: Relation;
    target: Target;
  };
  export type Component<Uid extends string = string, Repeatable extends boolean = false> = OfType<'component'> & {
    component: Uid;
    repeatable: Repeatable;
  };
  export type DynamicZone<Components extends readonly string[] = string[]> = OfType<'dynamiczone'> & { components: Components };

  export interface Required {
    required: true;
  }
  export interface Private {
    private: true;
  }
  export interface Unique {
    unique: true;
  }
  export interface Configurable {
    configurable: true;
  }
  export interface Writable {
    writable: true;
  }
  export interface Visible {
    visible: true;
  }
  export type CustomField<Uid extends string, _Options extends Literal = undefined> = { customField: Uid };
  export type SetPluginOptions<Options extends Literal> = { pluginOptions: Options };
  export type SetMinMax<Options extends Literal, _Type = number> = { minMax: Options };
  export type SetMinMaxLength<Options extends Literal> = { minMaxLength: Options };
  export type DefaultTo<Value extends Literal> = { default: Value };

  /** The value of one attribute in an entry, as the entity service returns it. */
  export type GetValue<A> = A extends { type: 'relation'; relation: infer R; target: infer T }
    ? R extends `${string}Many` | 'manyWay'
      ? Array<GetValues<T & string>>
      : GetValues<T & string> | null
    : A extends { type: 'component'; component: infer C; repeatable: infer Repeatable }
      ? Repeatable extends true
        ? Array<ComponentValues<C & string>>
        : ComponentValues<C & string> | null
      : A extends { type: 'dynamiczone'; components: infer List extends readonly string[] }
        ? Array<{ [U in List[number]]: { __component: U } & ComponentValues<U> }[List[number]]>
        : A extends { type: 'media'; multiple: infer Multiple }
          ? Multiple extends true
            ? Array<Record<string, unknown>>
            : Record<string, unknown> | null
          : A extends { type: 'enumeration'; enum: infer Values extends readonly string[] }
            ? Values[number] | null
            : A extends { type: 'integer' | 'float' | 'decimal' }
              ? number | null
              : A extends { type: 'boolean' }
                ? boolean | null
                : A extends { type: 'json' | 'blocks' }
                  ? unknown
                  : A extends { type: Kind }
                    ? string | null
                    : unknown;

  /** An entry of a content type by uid: `id` and every attribute. Unknown uids give a loose record. */
  export type GetValues<Uid extends string> = Uid extends keyof Shared.ContentTypes
    ? { id: number } & { [Name in keyof AttributesOf<Shared.ContentTypes[Uid]>]?: GetValue<AttributesOf<Shared.ContentTypes[Uid]>[Name]> }
    : Record<string, unknown>;

  export type ComponentValues<Uid extends string> = Uid extends keyof Shared.Components
    ? { id: number } & { [Name in keyof AttributesOf<Shared.Components[Uid]>]?: GetValue<AttributesOf<Shared.Components[Uid]>[Name]> }
    : Record<string, unknown>;

  type AttributesOf<S> = S extends { attributes: infer A } ? A : never;
}

// eslint-disable-next-line @typescript-eslint/no-namespace
export namespace Schema {
  interface Base {
    collectionName?: string;
    info: Record<string, unknown>;
    options?: Record<string, unknown>;
    pluginOptions?: Record<string, unknown>;
    attributes: Record<string, Attribute.Any>;
  }
  export interface CollectionType extends Base {
    kind?: 'collectionType';
  }
  export interface SingleType extends Base {
    kind?: 'singleType';
  }
  export type ContentType = CollectionType | SingleType;
  export type Component = Base;
}
