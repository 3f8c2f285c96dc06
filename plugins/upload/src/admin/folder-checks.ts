/**
 * The bodies of the folder routes and of bulk-move / bulk-delete, checked as
 * Strapi 4.26.2's upload plugin checks them (its yup schemas, their messages
 * and order): a folder name without slashes or surrounding spaces, unique in
 * its parent; a parent or destination that exists; no folder moved into
 * itself or below itself. Ids arrays are bounded (`MAX_IDS`).
 */
import { ValidationError } from '@tessera/errors';
import type { App } from '@tessera/core';
import { FOLDER_UID } from '../contract';
import { isFolderOrChild } from './folder-paths';
import { isStrapiId, Issues, objectBody, required, rowId, typeMessage, unknownKeysMessage } from './checks';
import type { MoveRequest } from './move';

/** Ids one bulk request may name. */
export const MAX_IDS = 1000;

const NO_SLASH = /^[^/]+$/;
const NO_SPACES_AROUND = /^(?! ).+(?<! )$/;

const folders = (app: App) => app.db.query(FOLDER_UID);

async function folderExists(app: App, value: unknown): Promise<boolean> {
  if (value === null || value === undefined) return true;
  const id = rowId(value);
  return id !== null && (await folders(app).count({ where: { id } })) > 0;
}

/** A name's own tests; `true` when it passed them (then uniqueness is asked). */
function checkName(issues: Issues, name: unknown, isRequired: boolean): name is string {
  if (name === undefined || name === null || name === '') {
    if (isRequired) issues.add(['name'], required('name'));
    return false;
  }
  if (typeof name !== 'string') {
    issues.add(['name'], typeMessage('name', 'string', name));
    return false;
  }
  const before = issues.has(['name']);
  // The column is varchar(255) (Strapi answers a longer name with a database error).
  if (name.length > 255) issues.add(['name'], 'name must be at most 255 characters');
  if (!NO_SLASH.test(name)) issues.add(['name'], 'name cannot contain slashes');
  if (!NO_SPACES_AROUND.test(name)) issues.add(['name'], 'name cannot start or end with a whitespace');
  return !before && !issues.has(['name']);
}

async function checkParent(app: App, issues: Issues, parent: unknown): Promise<boolean> {
  if (parent === undefined || parent === null) return true;
  if (!isStrapiId(parent)) {
    issues.add(['parent'], typeMessage('parent', 'strapiID', parent));
    return false;
  }
  if (!(await folderExists(app, parent))) {
    issues.add(['parent'], 'parent folder does not exist');
    return false;
  }
  return true;
}

/** Strapi's `isNameUniqueInFolder`: no other folder of that parent has the name. */
async function nameIsFree(app: App, name: string, parent: number | null, except?: number): Promise<boolean> {
  const where: Record<string, unknown> = { name, parent: parent === null ? { id: { $null: true } } : { id: parent } };
  if (except !== undefined) where.id = { $ne: except };
  return (await folders(app).count({ where })) === 0;
}

export async function checkCreateFolder(app: App, raw: unknown): Promise<{ name: string; parent: number | null }> {
  const body = objectBody(raw);
  const issues = new Issues();
  const parentGiven = body.parent === undefined || body.parent === null ? null : rowId(body.parent);
  if (checkName(issues, body.name, true) && !(await nameIsFree(app, body.name as string, parentGiven))) {
    issues.add(['name'], 'A folder with this name already exists');
  }
  await checkParent(app, issues, body.parent);
  const unknown = unknownKeysMessage(body, ['name', 'parent']);
  if (unknown) issues.add([], unknown);
  issues.throwIfAny();
  return { name: body.name as string, parent: parentGiven };
}

export async function checkUpdateFolder(app: App, id: number, raw: unknown): Promise<{ name?: string; parent?: number | null }> {
  const body = objectBody(raw);
  const issues = new Issues();
  const current = await folders(app).findOne({ where: { id }, select: ['name', 'path'], populate: { parent: { select: ['id'] } } });
  const parent = body.parent === undefined ? undefined : body.parent === null ? null : rowId(body.parent);
  if (body.name !== undefined && checkName(issues, body.name, false)) {
    // Strapi's test reads the parent from the body only, so a rename without one is checked at the root (and a
    // sibling's name passes); here it is checked where the folder will be.
    const currentParent = (current?.parent as { id?: number } | null | undefined)?.id ?? null;
    const where = parent === undefined ? currentParent : parent;
    if (!(await nameIsFree(app, body.name as string, where, id))) issues.add(['name'], 'A folder with this name already exists');
  }
  if ((await checkParent(app, issues, body.parent)) && parent !== undefined && parent !== null && current) {
    const destination = await folders(app).findOne({ where: { id: parent }, select: ['path'] });
    if (destination && isFolderOrChild(destination, current)) issues.add(['parent'], 'folder cannot be moved inside itself');
  }
  const unknown = unknownKeysMessage(body, ['name', 'parent']);
  if (unknown) issues.add([], unknown);
  issues.throwIfAny();
  const out: { name?: string; parent?: number | null } = {};
  if (typeof body.name === 'string') out.name = body.name;
  if (parent !== undefined) out.parent = parent;
  return out;
}

/** `fileIds` / `folderIds`: arrays of ids (of at most MAX_IDS); ids that name no row are left to the caller. */
function checkIds(issues: Issues, body: Record<string, unknown>, key: 'fileIds' | 'folderIds'): number[] {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    issues.add([key], typeMessage(key, 'array', value));
    return [];
  }
  if (value.length > MAX_IDS) issues.add([key], `${key} field must have less than or equal to ${MAX_IDS} items`);
  const ids: number[] = [];
  for (const [index, item] of value.entries()) {
    const path = `${key}[${index}]`;
    if (item === undefined || item === null) issues.add([key, String(index)], required(path));
    else if (!isStrapiId(item)) issues.add([key, String(index)], typeMessage(path, 'strapiID', item));
    else {
      const id = rowId(item);
      if (id !== null) ids.push(id);
    }
  }
  return ids;
}

export function checkBulkDelete(raw: unknown): { fileIds: number[]; folderIds: number[] } {
  const body = objectBody(raw);
  const issues = new Issues();
  const fileIds = checkIds(issues, body, 'fileIds');
  const folderIds = checkIds(issues, body, 'folderIds');
  const unknown = unknownKeysMessage(body, ['fileIds', 'folderIds']);
  if (unknown) issues.add([], unknown);
  issues.throwIfAny();
  return { fileIds, folderIds };
}

/** Strapi's three passes: the shape (with the destination's existence), duplicate names there, no move into oneself. */
export async function checkBulkMove(app: App, raw: unknown): Promise<MoveRequest> {
  const body = objectBody(raw);
  const issues = new Issues();
  const destination = body.destinationFolderId;
  if (destination === undefined) issues.add(['destinationFolderId'], 'destinationFolderId must be defined');
  else if (destination !== null && !isStrapiId(destination)) issues.add(['destinationFolderId'], typeMessage('destinationFolderId', 'strapiID', destination));
  else if (!(await folderExists(app, destination))) issues.add(['destinationFolderId'], 'destination folder does not exist');
  const fileIds = checkIds(issues, body, 'fileIds');
  const folderIds = checkIds(issues, body, 'folderIds');
  const unknown = unknownKeysMessage(body, ['destinationFolderId', 'fileIds', 'folderIds']);
  if (unknown) issues.add([], unknown);
  issues.throwIfAny();
  const destinationFolderId = destination === null || destination === undefined ? null : rowId(destination)!;
  if (folderIds.length > 0) {
    const moved = await folders(app).findMany({ where: { id: { $in: folderIds } }, select: ['name', 'path'], orderBy: [{ id: 'asc' }] });
    const there = await folders(app).findMany({ where: { parent: destinationFolderId === null ? { id: { $null: true } } : { id: destinationFolderId } }, select: ['name'] });
    const taken = new Set(there.map((folder) => folder.name));
    const duplicated = moved.map((folder) => folder.name).filter((name) => taken.has(name));
    if (duplicated.length > 0) throw ValidationError.forField([], `some folders already exists: ${duplicated.join(', ')}`);
    if (destinationFolderId !== null) {
      const target = await folders(app).findOne({ where: { id: destinationFolderId }, select: ['path'] });
      const inside = target ? moved.filter((folder) => isFolderOrChild(target, folder)).map((folder) => folder.name) : [];
      if (inside.length > 0) throw ValidationError.forField([], `folders cannot be moved inside themselves or one of its children: ${inside.join(', ')}`);
    }
  }
  return { destinationFolderId, fileIds, folderIds };
}
