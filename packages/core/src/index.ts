export { App, type AppOptions } from './app';
export * from './types';
export * from './errors';
export { Registry } from './registries/registry';
export { MEDIA_FILE_STORE, type ReceivedFile, type StoredUnlistedFile, type UnlistedFile, type UnlistedFileStore } from './files/unlisted-files';
export { Hooks, type HookEvents, type HookHandler, type HookName } from './hooks';
export { Logger } from './logger';
export { createEnv, type Env } from './config/env';
export { getConfig, loadConfig, loadDotEnv, type AppConfig, type ConfigTree } from './config/load-config';
export { EntityService, type EntityPage, type FindParams, type EntityWriteParams } from './content/entity-service';
export type { EntityServiceDecorator, EntityServiceImplementation, EntityServiceMethod } from './content/entity-service-decorations';
export { CONTENT_EVENTS, type ContentEvent, type ContentEventName } from './content/content-events';
export type { QueryParameter, QueryParameterArgument, QueryParameterContext } from './content/query-parameters';
export type { WriteData, WriteRule } from './content/write-rules';
export { ResponseTransformer, type RestEntry } from './content/response-transformer';
export { parseQuery } from './http/query-string';
export { requestBody, requestFiles } from './http/request-body';
export { readSignedValue, signValue, type SigningKey } from './http/signed-value';
export { failStalledMultipartParser, type MultipartParserClass } from './http/multipart-stall';
export { routeDispatcher } from './http/route-dispatch';
export { BodyParsing } from './http/body-parsing';
export { Permissions, ConfigPermissions } from './auth/permissions';
export { PluginHandle } from './plugins/plugin-handle';
export type { ContentManagerWrite, ProceedWithWrite } from './plugins/layout-actions';
export { pluginState } from './plugins/plugin-state';
export type { PluginServices, DeclaredService, DeclaredServiceName, ServiceLookup } from './plugins/plugin-services';
export { ContentApi, parseId, type ContentApiConfig, type FindResult, type OperationContext, type RequestParams } from './content/content-api';
export type { PaginationMeta } from './content/pagination';
export { ActionSet, allowEverything, readOnly } from './auth/abilities';
export { authorize, policyAdmits, restRefusal, type AuthRequirement, type Refusal } from './auth/authorize';
export { Caller, type CallerKind, type Grant } from './auth/caller';
export { Gate, gatesOf, resolverPolicyContext, routePolicyContext, type GateConfig, type GateRequirement, type GateSummary } from './auth/gate';
export { findReferenced, namedReference, qualifiedName, type ReferenceOwner } from './registries/references';
export { ApiTokens, type ApiTokenInfo, type ApiTokenType, type CreateApiTokenInput } from './auth/api-tokens';
export type { AdminApiTokenService, ApiTokenAttributes } from './auth/admin-api-token-service';
export { kernelEntryPoints, loadModule, shareKernelPackages } from './loader/load-module';
export { typeScriptOutDir } from './loader/compiled-layout';
export { checkPattern, type PatternVerdict } from './loader/pattern-safety';
export { isEmailAddress, MAX_EMAIL_LENGTH } from './content/email-address';
export { dependencyOrder } from './plugins/resolve-plugins';
export { strapiServerModule, kernelContextOf, type StrapiServerModule } from './plugins/strapi-server-module';
export { providerPackage, type ProviderModule } from './plugins/provider-package';
export type { Attribute, Component, ContentType, Entity, EntityMetadata, EntryBudget, Metadata, LifecycleEvent, Subscriber } from '@tessera/database';
export type { Common } from './typings/registry';
export type { TypedEntityService, EntryOf, FindParamsOf, WriteParamsOf, PageOf } from './typings/entity-service';
export { contentAction, routeHandlerAction, restPrefix, routeTable, summarize, type RouteRow, type RouteSummary } from './http/route-table';
export { contentApiActions, contentApiActionsMap, contentApiRoutesMap, type ContentApiActionsMap, type ContentApiRoute } from './http/content-api-map';
export { buildOpenApi, OPENAPI_PATH } from './openapi/route';
export { WEBHOOK_EVENTS, type Webhook, type WebhookDefinition } from './webhooks/types';
export { SIGNATURE_HEADER, signatureHeader, verifySignature } from './webhooks/signature';
export type { EventHub, EventListener, EventSubscriber } from './webhooks/event-hub';
export type { Delivery, DeliveryCounts, DeliveryStatus } from './webhooks/outbox';
export type { StoredWebhook, WebhookInput, WebhookStore } from './webhooks/webhook-store';
export type { RunResult, RunnerWebhook, WebhookRunner } from './webhooks/webhook-runner';
export { addressRefusal, targetRefusal, type TargetPolicy } from './webhooks/target-policy';
export {
  AdminActionProvider,
  AdminConditionProvider,
  actionIdOf,
  conditionIdOf,
  type AdminAction,
  type AdminActionDefinition,
  type AdminCondition,
  type AdminConditionDefinition,
  type AdminConditionUser,
  type AdminSurface,
  type PropertyToSubjectRule,
} from './strapi/admin';
export type { AdminPluginServices, AdminRoleEntity, AdminRoleService, AdminTokenService, AdminUserEntity, AdminUserService } from './strapi/admin-services';
