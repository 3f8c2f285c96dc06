/**
 * Arguments from the query parameters plugins declare in the kernel
 * (`app.queryParameters` entries with an `argument`, such as i18n's
 * `locale: I18NLocaleCode`). Shadow CRUD adds each to the operations it
 * names and hands its value to the content-API operation as the parameter
 * of the same name — what REST does with `?locale=` — so both transports
 * give it one meaning (validation, default, effect on the read plan).
 * The declaring plugin provides the argument's type through the extension
 * service; this module knows nothing of any particular parameter.
 */
import { arg } from 'nexus';
import type { App, CoreAction, QueryParameter } from '@tessera/core';

type Args = Record<string, unknown>;

export class DeclaredArguments {
  private readonly parameters: QueryParameter[];

  constructor(app: App) {
    this.parameters = app.queryParameters.values().filter((parameter) => parameter.argument !== undefined);
  }

  /** The nexus argument definitions of one operation (`action` on `uid`). */
  definitions(uid: string, action: CoreAction): Args {
    const definitions: Args = {};
    for (const parameter of this.taking(uid, action)) definitions[parameter.name] = arg({ type: parameter.argument!.type });
    return definitions;
  }

  /** The values the client gave, as content-API parameters; an argument left out (or null) is not sent, so defaults apply. */
  values(uid: string, action: CoreAction, args: Args): Args {
    const params: Args = {};
    for (const parameter of this.taking(uid, action)) {
      const value = args[parameter.name];
      if (value !== undefined && value !== null) params[parameter.name] = value;
    }
    return params;
  }

  private taking(uid: string, action: CoreAction): QueryParameter[] {
    return this.parameters.filter(({ argument }) => argument!.actions.includes(action) && argument!.appliesTo(uid));
  }
}
