import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import * as jobNames from "../../src/modules/payments/job-names.ts";
import { canMove, TRANSITIONS } from "../../src/modules/payments/lifecycle.ts";
import { type Move, PIPELINE } from "../../src/modules/payments/pipeline/index.ts";

// docs/payments.md draws the payment's states as the list of moves `lifecycle.ts` allows: the
// drawing and the code must say the same, or a reader trusts a move the service refuses.
test("the States drawing in docs/payments.md is the transition table of lifecycle.ts", () => {
  const doc = readFileSync("docs/payments.md", "utf8");
  const section = doc.slice(doc.indexOf("## States"));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, "docs/payments.md has a drawing under ## States");
  const drawn: Record<string, string[]> = {};
  for (const line of block.trim().split("\n")) {
    const [from, to] = line.split("->").map((part) => part.trim());
    drawn[from] = to.split("|").map((state) => state.trim().replace(/\*+$/, ""));
  }
  const moves = Object.fromEntries(
    Object.entries(TRANSITIONS)
      .filter(([, to]) => to.length > 0)
      .map(([from, to]) => [from, [...to]]),
  );
  assert.deepEqual(drawn, moves);
});

// The pipeline's steps (src/modules/payments/pipeline/index.ts) are a table in docs/payments.md:
// the same steps in the same order, with the same jobs, moves and compensations.
const PIPELINE_DIR = "src/modules/payments/pipeline";

const moveText = ([from, to]: Move) => `${from ?? "(new)"} -> ${to}`;

function documentedSteps() {
  const doc = readFileSync("docs/payments.md", "utf8");
  const section = doc.slice(doc.indexOf("### The steps in the code"));
  const lines = section.split("\n");
  const start = lines.findIndex((line) => line.startsWith("| step |"));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith("|"));
  const rows = lines
    .slice(start + 2, end)
    .map((line) => line.split("|").map((cell) => cell.trim().replaceAll("`", "")));
  assert.ok(start >= 0 && rows.length > 0, "docs/payments.md has a table under ### The steps in the code");
  return rows.map(([, step, file, jobs, moves, compensation]) => ({
    step,
    file,
    jobs: jobs === "none" ? [] : jobs.split(", "),
    moves: moves === "none" ? [] : moves.split(", "),
    compensation: compensation === "none" ? null : compensation,
  }));
}

test("the step table in docs/payments.md is PIPELINE, step for step", () => {
  const fromCode = PIPELINE.map(({ step, jobs, moves, compensation }) => ({
    step,
    file: `${step}.ts`,
    jobs: [...jobs],
    moves: moves.map(moveText),
    compensation: compensation && `${compensation.name} in ${compensation.step}`,
  }));
  assert.deepEqual(documentedSteps(), fromCode);
});

test("every move of a step is one lifecycle.ts allows; a payment is created pending", () => {
  const refused = PIPELINE.flatMap(({ step, moves }) =>
    moves
      .filter(([from, to]) => (from === null ? to !== "pending" : !canMove(from, to)))
      .map((move) => `${step}: ${moveText(move)}`),
  );
  assert.deepEqual(refused, []);
});

test("each step is one file of pipeline/, saying its compensation and its crash guarantee", async () => {
  const files = readdirSync(PIPELINE_DIR).filter((file) => file !== "index.ts");
  assert.deepEqual(files.sort(), PIPELINE.map(({ step }) => `${step}.ts`).sort());
  for (const { step, compensation } of PIPELINE) {
    const source = readFileSync(`${PIPELINE_DIR}/${step}.ts`, "utf8");
    const opening = source.slice(0, source.search(/^import /m));
    assert.match(opening, /Compensation: /, `${step}.ts says what undoes it`);
    assert.match(opening, /After a crash: /, `${step}.ts says what it guarantees after a crash`);
    if (!compensation) continue;
    const owner = await import(`../../${PIPELINE_DIR}/${compensation.step}.ts`);
    assert.equal(
      typeof owner[compensation.name],
      "function",
      `${compensation.step}.ts exports ${compensation.name}`,
    );
  }
});

test("every payment job of job-names.ts runs a step of PIPELINE", () => {
  const stepJobs = new Set(PIPELINE.flatMap(({ jobs }) => jobs));
  const jobs = Object.values(jobNames as Record<string, unknown>).filter(
    (value): value is string => typeof value === "string" && value.startsWith("payments."),
  );
  assert.ok(jobs.length > 0);
  assert.deepEqual(
    jobs.filter((job) => !stepJobs.has(job)),
    [],
  );
});
