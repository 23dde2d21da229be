import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { paramFields, specOf } from "../../src/modules/triggers/form.ts";
import { parseParams } from "../../src/modules/triggers/params.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmTrigger } from "../helpers/triggers.ts";

// `params_data` as the interface writes it: one descriptor object per type key.
const INTERFACE_FORM = {
  string: {
    name: "receiver",
    desc: "Who receives",
    is_ethereum_address: true,
    optional: false,
    nullable: false,
  },
  number: { name: "quantity", desc: "How many", optional: false, nullable: false },
};

describe("parseParams", () => {
  it("reads one descriptor per type key as it reads a list of one", () => {
    const asObjects = parseParams(INTERFACE_FORM, "/p");
    const asLists = parseParams({ string: [INTERFACE_FORM.string], number: [INTERFACE_FORM.number] }, "/p");
    assert.deepEqual(asObjects, asLists);
    assert.deepEqual(
      asObjects.map((p) => [p.type, p.name, p.isEthereumAddress]),
      [
        ["string", "receiver", true],
        ["number", "quantity", false],
      ],
    );
  });

  it("mixes both forms, and names each problem where it is", () => {
    const mixed = parseParams({ string: [{ name: "a" }, { name: "b" }], boolean: { name: "gift" } }, "/p");
    assert.deepEqual(
      mixed.map((p) => p.name),
      ["a", "b", "gift"],
    );
    const paths = (raw: unknown) => {
      try {
        parseParams(raw, "/p");
        return [];
      } catch (error) {
        return (error as { errors: { path: string }[] }).errors.map((e) => e.path);
      }
    };
    assert.deepEqual(paths({ number: { name: "q", optional: "no" } }), ["/p/number/optional"]);
    assert.deepEqual(paths({ number: {} }), ["/p/number/name"]);
    assert.deepEqual(paths({ number: "q" }), ["/p/number"]);
    assert.deepEqual(paths({ number: { name: "q" }, string: [{ name: "q" }] }), ["/p"], "names stay unique");
    assert.deepEqual(paths({ object: { name: "o", value: [{ string: { name: "x", nope: 1 } }] } }), [
      "/p/object/value/0/string/nope",
    ]);
  });
});

describe("the parameter fields", () => {
  it("one labelled, typed field per parameter, its description as help, in the interface's type order", () => {
    const params = parseParams(
      {
        boolean: { name: "gift_wrap", optional: true },
        string: [
          { name: "receiver", desc: "Who <b>receives</b>", is_ethereum_address: true },
          { name: "note", nullable: true },
        ],
        number: { name: "quantity" },
        array: { name: "tags", value: { string: { name: "tag" } } },
      },
      "/p",
    );
    const html = paramFields(params);
    const order = [...html.matchAll(/<label for="param-(\w+)"/g)].map((m) => m[1]);
    assert.deepEqual(order, ["quantity", "receiver", "note", "gift_wrap", "tags"]);
    assert.match(html, /<label for="param-gift_wrap">Gift wrap <span class="optional">\(optional\)<\/span>/);
    assert.match(html, /Who &lt;b&gt;receives&lt;\/b&gt;\. An Ethereum address/, "help is escaped text");
    assert.match(html, /<input id="param-quantity" name="quantity"[^>]* inputmode="decimal"/);
    assert.match(html, /<select id="param-gift_wrap"[^>]*><option value="">Leave out<\/option>/);
    assert.match(html, /<textarea id="param-tags"/);
    assert.match(html, /id="param-note-none"/, "a nullable field can be left without a value");
    assert.doesNotMatch(html, /id="param-receiver-none"/);
    assert.equal(paramFields([]), "", "no parameters, no fields");
    assert.deepEqual(specOf(params.find((p) => p.name === "tags")!).element, {
      name: "tag",
      type: "string",
      label: "Tag",
      optional: false,
      nullable: false,
      address: null,
    });
  });
});

describe("the trigger API with the interface's form", () => {
  let walletId: string;
  const fx = useTestApp(
    {},
    {
      async setUp() {
        walletId = expectStatus(
          await call(fx.app, "POST", `/wallets/${fx.tenants.app.id}`, {
            token: fx.tenants.owner.token,
            body: { name: "W", type: "evm" },
          }),
          201,
        ).id;
      },
    },
  );

  const body = (params_data: unknown) => ({ ...evmTrigger(walletId), params_data });

  it("creates, reads back as written, renders and pays with object-form descriptors", async () => {
    const { data, ...evm } = evmTrigger(walletId).call_data.evm;
    const trigger = expectStatus(
      await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: {
          ...body(INTERFACE_FORM),
          call_data: { evm: { ...evm, data: [{ name: "memo", value: "x" }] } },
        },
      }),
      201,
    );
    assert.deepEqual(trigger.params_data, INTERFACE_FORM);
    const read = expectStatus(
      await call(fx.app, "GET", `/triggers/${fx.tenants.app.id}/${trigger.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.deepEqual(read.params_data, INTERFACE_FORM);
    assert.deepEqual(JSON.parse(read.params_data_example), {
      receiver: "0x0000000000000000000000000000000000000001",
      quantity: 1,
    });
    const rendered = await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}/${trigger.id}/render`, {
      token: fx.tenants.owner.token,
      body: { params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 4 } },
    });
    assert.equal(expectStatus(rendered, 200).evm.args[1], "4");
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      trigger_id: trigger.id,
    });
    const refused = await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: {
        price_id: price.id,
        payment_provider: "card",
        trigger_data_input: { params_data_input: { receiver: "0xnope", quantity: 1 } },
      },
    });
    assert.equal(
      assertProblem(refused, 400, "validation_failed").errors[0].path,
      "/body/trigger_data_input/params_data_input/receiver",
    );
  });

  it("PATCH takes either form, and a bad object-form descriptor is named by its path", async () => {
    const trigger = expectStatus(
      await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: evmTrigger(walletId),
      }),
      201,
    );
    const url = `/triggers/${fx.tenants.app.id}/${trigger.id}`;
    const lists = evmTrigger(walletId).params_data;
    const patched = expectStatus(
      await call(fx.app, "PATCH", url, {
        token: fx.tenants.owner.token,
        body: { params_data: { ...lists, boolean: { name: "gift", optional: true } } },
      }),
      200,
    );
    assert.deepEqual(patched.params_data.boolean, { name: "gift", optional: true });
    assert.deepEqual(patched.params_data.string, lists.string, "lists stay lists");
    const bad = await call(fx.app, "PATCH", url, {
      token: fx.tenants.owner.token,
      body: { params_data: { ...lists, boolean: { name: "gift", nullable: "sometimes" } } },
    });
    assert.equal(
      assertProblem(bad, 400, "validation_failed").errors[0].path,
      "/body/params_data/boolean/nullable",
    );
    const unchanged = expectStatus(await call(fx.app, "GET", url, { token: fx.tenants.owner.token }), 200);
    assert.deepEqual(
      unchanged.params_data.boolean,
      { name: "gift", optional: true },
      "a refused PATCH changes nothing",
    );
  });
});
