import { type TSchema, Type } from "typebox";
import { ERROR_STATUS, type ErrorCode } from "./errors.ts";

/** RFC 9457 problem document, as every error answers. */
export const Problem = Type.Object(
  {
    type: Type.String({ description: "URI reference naming the kind of problem: `urn:problem:<code>`." }),
    title: Type.String({ description: "Short, human-readable summary of the kind of problem." }),
    status: Type.Integer({ description: "The HTTP status code of this answer." }),
    detail: Type.String({ description: "What went wrong with this request, in plain words." }),
    // An enum in the document, from the one list of codes, so clients get the codes as a type.
    code: Type.Unsafe<ErrorCode>({
      type: "string",
      enum: Object.keys(ERROR_STATUS),
      description:
        "Stable machine-readable error code, e.g. `validation_failed`; the catalogue is in the API's description.",
    }),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            path: Type.String({ description: "Where the problem is, e.g. `/body/name` or `/query/limit`." }),
            message: Type.String({ description: "What is wrong with it, in plain words." }),
          },
          { title: "ValidationError", description: "One refused field and why" },
        ),
        { description: "On a validation problem: each field refused, and why." },
      ),
    ),
    open: Type.Optional(
      Type.Record(Type.String(), Type.Integer(), {
        description:
          "On a refused app delete (409): how many of the app's payments are still in flight, per kind (docs/payments.md).",
      }),
    ),
    amount_remaining: Type.Optional(
      Type.String({
        description:
          "On a refund of more than is left (409): what remains to be refunded, a decimal in the charge currency.",
      }),
    ),
    challenge_token: Type.Optional(
      Type.String({
        description:
          "On a log-in answered `two_factor_required` (401): the single-use challenge to send with a code to `POST /auth/login/2fa` (docs/accounts.md).",
      }),
    ),
    challenge_expires_at: Type.Optional(
      Type.String({ format: "date-time", description: "When that challenge stops working (5 minutes)." }),
    ),
    request_id: Type.String({
      description: "The request's id, also in the x-request-id header; quote it to support.",
    }),
  },
  {
    $id: "Problem",
    description: "RFC 9457 problem details",
    examples: [
      {
        type: "urn:problem:validation_failed",
        title: "Invalid request",
        status: 400,
        detail: "/body/price_id: must NOT have fewer than 1 characters",
        code: "validation_failed",
        errors: [{ path: "/body/price_id", message: "must NOT have fewer than 1 characters" }],
        request_id: "req-1",
      },
    ],
  },
);

export const Timestamp = Type.String({ format: "date-time", description: "An instant, in RFC 3339 form" });
export const Id = (description = "Opaque id") => Type.String({ minLength: 1, maxLength: 64, description });
/** The schema or null; its description is also the union's, so the field is described where it is read. */
export const Nullable = <T extends TSchema>(schema: T) => {
  const { description } = schema as { description?: string };
  return Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
};

/** A strict request body: unknown fields are refused with 400 naming the field. */
export function Body<T extends Record<string, TSchema>>(properties: T, description?: string) {
  return Type.Object(properties, { additionalProperties: false, description });
}

export const NoContent = Type.Null({ description: "No content" });
