/** A provider's request that failed (unreachable, too slow, too large, or refused): its message is what the client is told. */
export class ProviderRequestError extends Error {
  override name = 'ProviderRequestError';

  /** `body`: the provider's own error answer, which grant hands to the frontend (`error[error]=invalid_grant`). */
  constructor(message: string, readonly body?: unknown) {
    super(message);
  }
}
