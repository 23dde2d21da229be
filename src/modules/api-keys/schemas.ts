import { Type } from "typebox";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";

export const ApiKey = Type.Object(
  {
    id: Type.String({ description: "The key's id (`key_…`)" }),
    name: Type.String({ description: "What the key is for, as its creator named it" }),
    prefix: Type.String({ description: "The key's first characters, to recognise it; never the key" }),
    created_by: Nullable(Type.String({ description: "The id of the user who created the key" })),
    revoked_at: Nullable(
      Type.String({ format: "date-time", description: "When the key was revoked; null while it works" }),
    ),
    created_at: Timestamp,
  },
  { description: "An API key of an app, without the key itself" },
);

export const CreatedApiKey = Type.Object(
  {
    id: Type.String({ description: "The key's id (`key_…`)" }),
    name: Type.String({ description: "What the key is for, as its creator named it" }),
    prefix: Type.String({ description: "The key's first characters, to recognise it later" }),
    key: Type.String({ description: "The secret key: shown this once, stored only as a hash" }),
    created_at: Timestamp,
  },
  { description: "A new API key, with the key itself (answered this once)" },
);

export const CreateApiKeyBody = Body({
  name: Type.String({
    minLength: 1,
    maxLength: 200,
    description: "What the key is for, e.g. the server using it",
  }),
});
export const ApiKeyParams = Type.Object({
  app_id: Type.String({ maxLength: 64, description: "The app's id" }),
  key_id: Type.String({ maxLength: 64, description: "The key's id" }),
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ ApiKey, CreatedApiKey });
