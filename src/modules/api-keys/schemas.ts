import { Type } from "typebox";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";

export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: "The key's first characters, to recognise it; never the key" }),
  created_by: Nullable(Type.String()),
  revoked_at: Nullable(Timestamp),
  created_at: Timestamp,
});

export const CreatedApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  key: Type.String({ description: "The secret key: shown this once, stored only as a hash" }),
  created_at: Timestamp,
});

export const CreateApiKeyBody = Body({ name: Type.String({ minLength: 1, maxLength: 200 }) });
export const ApiKeyParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  key_id: Type.String({ maxLength: 64 }),
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ ApiKey, CreatedApiKey });
