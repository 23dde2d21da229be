import type { Server } from "./server.ts";

type Schema = Record<string, unknown>;

/** The `webhooks` section: each event a POST to the receiver's URL whose body is its named schema. */
export function addWebhooks(doc: Schema, documented: Parameters<Server["documentWebhooks"]>[]): Schema {
  const components = (doc.components as Schema).schemas as Record<string, unknown>;
  const section: Schema = {};
  for (const [events] of documented) {
    const refs: Record<string, string> = {};
    for (const [type, schema] of Object.entries(events)) {
      const title = String(schema.title);
      components[title] = schema;
      refs[type] = `#/components/schemas/${title}`;
      section[type] = {
        post: {
          operationId: `on${title}`,
          tags: ["webhooks"],
          summary: `\`${type}\`, sent to the endpoints subscribed to it`,
          description: String(schema.description),
          security: [],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { $ref: refs[type] },
                example: (schema.examples as unknown[])?.[0],
              },
            },
          },
          responses: {
            "2XX": { description: "Received: any 2xx answer ends the delivery; others are retried" },
          },
        },
      };
    }
  }
  return Object.keys(section).length > 0 ? { ...doc, webhooks: section } : doc;
}
