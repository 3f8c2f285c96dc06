/**
 * Data a plugin must add when the model changes, done at boot: one UPDATE
 * giving every row of a type a value where a column is NULL (i18n gives the
 * existing entries of a type that became localized the default locale, as
 * Strapi v4 does after its schema sync). No lifecycle runs and the
 * timestamps stay: the entries' content did not change.
 */
import { ConfigurationError } from '@tessera/errors';
import type { Connection } from '../connection/connection';
import type { EntityMetadata } from '../metadata/metadata';
import { encoderFor } from '../query/codec';

/** Sets `attribute` to `value` where it is NULL; returns how many rows changed. */
export function fillNull(connection: Connection, entity: EntityMetadata, attribute: string, value: unknown): Promise<number> {
  const field = entity.columns.get(attribute);
  if (!field) throw new ConfigurationError(`${entity.uid} has no column attribute "${attribute}"`);
  const statement = connection.knex(entity.tableName).update({ [field.column]: encoderFor(field, connection.dialect)(value) }).whereNull(field.column);
  return connection.transaction(async () => {
    connection.markWritten(entity.uid);
    return connection.affected(statement);
  });
}
