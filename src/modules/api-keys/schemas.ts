import { Type } from "typebox";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";

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
export const UpdateApiKeyBody = Body(
  { name: CreateApiKeyBody.properties.name },
  "The key's new name; the key itself does not change",
);
export const ApiKeyParams = AppAndIdParams("key_id", "The key's id");

const KEY = { id: "key_01m87s3v8jz4yz6eckzkdvqhg4", name: "Checkout server", prefix: "sk_test_3fQ9" };
withExamples(ApiKey, {
  ...KEY,
  created_by: "usr_01m87s3v8jz4yz6eckzkdvqhg2",
  revoked_at: null,
  created_at: "2026-11-24T21:30:00.000Z",
});
withExamples(CreatedApiKey, {
  ...KEY,
  key: "sk_test_3fQ9dWqz8Hc1Lr5VbKx0pNe7YtA2sJmU4gF6iZoC",
  created_at: "2026-11-24T21:30:00.000Z",
});
withExamples(CreateApiKeyBody, { name: "Checkout server" });
withExamples(UpdateApiKeyBody, { name: "Checkout server (EU)" });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ ApiKey, CreatedApiKey });
