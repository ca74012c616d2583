import { Type, type TSchema } from '@sinclair/typebox'

/** A field the platform may send as null: the spec treats null like absent for optional fields. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** Optional and nullable. */
export const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema))

/** At least one non-blank character; the error formatter turns a failure into "must not be blank". */
export const NON_BLANK_PATTERN = '\\S'
