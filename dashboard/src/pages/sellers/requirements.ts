import type { Kyc } from "@payments-backend/sdk";

/** The provider's requirement names in the owner's words (the widget asks the seller the same). */
const LABELS: Readonly<Record<string, string>> = Object.freeze({
  "individual.first_name": "First name",
  "individual.last_name": "Last name",
  "individual.dob": "Date of birth",
  "individual.address.line1": "Address",
  "individual.address.city": "City",
  "individual.address.postal_code": "Postal code",
  "individual.email": "Email address",
  "tos_acceptance.date": "Acceptance of the terms of service",
  "individual.verification.document": "An identity document",
  "individual.verification.additional_document": "An additional document",
  external_account: "A bank account for payouts",
});

/** A requirement the table does not know, made readable: `company.tax_id` -> "company tax id". */
const readable = (requirement: string) => LABELS[requirement] ?? requirement.replace(/[._]/g, " ");

export interface StillNeeded {
  /** What the seller must still give, past-due first, without repeats. */
  items: string[];
  /** Why the provider refused something already given. */
  errors: string[];
}

/**
 * What a seller still has to do. Before the provider has reported anything (`requirements` null)
 * the widget asks for the usual three: details, a bank account and an identity document.
 */
export function stillNeeded(kyc: Kyc): StillNeeded {
  if (kyc.business_status === "completed") return { items: [], errors: [] };
  const requirements = kyc.requirements;
  const due = requirements
    ? [...requirements.past_due, ...requirements.currently_due]
    : ["individual.first_name", "external_account", "individual.verification.document"];
  const documents = (kyc.required_documents ?? []).map((d) => d.requirement);
  const items = [...new Set([...due, ...documents].map(readable))];
  const errors = [
    ...(requirements?.errors ?? []).map((e) => e.reason),
    ...(kyc.required_documents ?? []).flatMap((d) => (d.error ? [d.error] : [])),
  ];
  return { items, errors: [...new Set(errors)] };
}
