/**
 * A query filter as Herald builds it outside libs/mongo (libs/audience's
 * `audienceFilter` and `liveTopicsFilter`): a plain object of fields and
 * query operators, in the MongoDB query language every store adapter speaks.
 * `_Doc` names the documents it is meant for. The query classes
 * (queries/<model>.ts) hand it to the driver; nothing outside libs/mongo
 * needs the driver's own filter type.
 */
export type StoreFilter<_Doc = unknown> = { readonly [fieldOrOperator: string]: unknown };

