/**
 * The upload plugin, in Strapi v4's plugin server format: the `file` and
 * `folder` content types (Strapi's tables), the upload and image-manipulation services, the
 * content-API routes under `/api/upload`, and — for the local provider —
 * `/uploads/*`. Enable it in `config/plugins.ts`: `upload: { enabled: true,
 * config: { provider, providerOptions, sizeLimit, ... } }`.
 */
import { MEDIA_FILE_STORE, restPrefix } from '@tessera/core';
import type { KernelContext, Plugin, RouteConfig } from '@tessera/core';
import { adminFileControllers } from './admin/file-controllers';
import { adminFolderControllers } from './admin/folder-controllers';
import { folderService } from './admin/folders';
import { ADMIN_ROUTES, VIEW_CONFIGURATION_ROUTES } from './admin/routes';
import { adminSettingsControllers, ensureViewConfiguration } from './admin/settings-controllers';
import { DEFAULT_CONFIG, validateConfig } from './config';
import contentApiController from './controllers/content-api';
import { fileSchema } from './content-types/file';
import { folderSchema } from './content-types/folder';
import { extendGraphql } from './graphql';
import { describeUnlisted, removeUnlisted, storeUnlisted } from './unlisted';
import { multipartMiddleware } from './multipart';
import { serveUploads } from './serve';
import { imageManipulationService } from './services/image-manipulation';
import { UploadService } from './services/upload';
import { ensureSettings } from './settings';

const contentApiRoutes: RouteConfig[] = [
  { method: 'POST', path: '', handler: 'content-api.upload', config: { middlewares: ['multipart'] } },
  { method: 'GET', path: '/files', handler: 'content-api.find' },
  { method: 'GET', path: '/files/:id', handler: 'content-api.findOne' },
  { method: 'DELETE', path: '/files/:id', handler: 'content-api.destroy' },
];


export const uploadPlugin: Plugin = {
  name: 'upload',
  // Before graphql's schema is built, and after its register: this plugin adds to its schema.
  optionalDependencies: ['graphql', 'admin'],
  config: { default: { ...DEFAULT_CONFIG }, validator: validateConfig },
  contentTypes: {
    file: { schema: fileSchema },
    folder: { schema: folderSchema },
  },
  services: {
    upload: ({ app }: KernelContext) => new UploadService(app),
    // Strapi's name: plugins and apps replace its functions (the upload looks each up when it runs).
    // Made bare by Strapi code that spreads it into its own (`services['image-manipulation']()`): see boundTo.
    'image-manipulation': (context?: KernelContext) => imageManipulationService(context?.app),
    folder: ({ app }: KernelContext) => folderService(app),
  },
  controllers: {
    'content-api': contentApiController,
    'admin-file': (context: KernelContext) => adminFileControllers(context)['admin-file'],
    'admin-upload': (context: KernelContext) => adminFileControllers(context)['admin-upload'],
    'admin-folder': (context: KernelContext) => adminFolderControllers(context)['admin-folder'],
    'admin-folder-file': (context: KernelContext) => adminFolderControllers(context)['admin-folder-file'],
    'admin-settings': (context: KernelContext) => adminSettingsControllers(context)['admin-settings'],
    'view-configuration': (context: KernelContext) => adminSettingsControllers(context)['view-configuration'],
  },
  middlewares: {
    multipart: (_config, { app }) => multipartMiddleware(() => app.plugin('upload')!.config<number>('sizeLimit')),
  },
  routes: {
    'content-api': { type: 'content-api', routes: contentApiRoutes },
    // The media library's, served with Strapi's admin (none in an API-only app: the kernel's route table).
    admin: { type: 'admin', routes: ADMIN_ROUTES },
    viewConfiguration: { type: 'admin', routes: VIEW_CONFIGURATION_ROUTES },
    uploads: {
      type: 'raw',
      prefix: '',
      // Only the local provider's files live under /uploads.
      routes: ({ app }) => {
        const { uploadsDir } = app.plugin('upload')!.service('upload').provider;
        if (!uploadsDir) return [];
        return [{ method: 'GET', path: '/uploads/:name', handler: serveUploads(uploadsDir), config: { auth: false } }];
      },
    },
  },
  register({ app }) {
    // Upload routes stream multipart bodies themselves, under `sizeLimit`: the global body parser must not read them first.
    // `/upload`: the media library's (admin) upload route, when the app has the admin.
    app.bodyParsing.claimMultipart(`${restPrefix(app)}/upload`);
    app.bodyParsing.claimMultipart('/upload');
    // Files sent where uploads are accepted (the GraphQL endpoint, when it runs) are bounded as this plugin's routes bound theirs.
    app.bodyParsing.limitUploadSize(app.plugin('upload')!.config<number>('sizeLimit'));
    // Files kept outside the media library (the admin's logos), through the same provider.
    const provider = () => app.plugin('upload')!.service('upload').provider;
    app.fileStores.add(MEDIA_FILE_STORE, {
      describe: (file) => describeUnlisted(file),
      store: (file, filepath) => storeUnlisted(provider(), file, filepath),
      remove: (file) => removeUnlisted(provider(), file),
    });
  },
  async bootstrap({ app }) {
    // Resolve the provider at boot: a misconfigured one stops the boot instead of failing the first upload.
    const upload = app.plugin('upload')!.service('upload');
    void upload.provider;
    await ensureSettings(app, upload.config);
    await ensureViewConfiguration(app);
    extendGraphql(app);
  },
};

export default uploadPlugin;
export { UploadService } from './services/upload';
export { FILE_UID, FOLDER_UID, type UploadServices } from './contract';
export type { ImageFile, ImageManipulation, ResponsiveFormat, ResizeOptions } from './services/image-manipulation';
export type { UploadConfig } from './config';
export type { UploadSettings } from './settings';
export type { StorageProvider, ProviderFile, ProviderModule } from './providers/types';
