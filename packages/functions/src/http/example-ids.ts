/**
 * The ids the OpenAPI examples use, one per kind of thing, so that examples referring to each
 * other agree. A module of its own: the stream routes need the ids without the reply schemas.
 */
export const EXAMPLE_IDS = {
  user: "6f1c2b9e-8d4a-4e1b-9c3f-2a7d5e8b1c04",
  account: "3b2f6c1d-5e4a-4b7c-9d8e-1f2a3b4c5d6e",
  savings: "8c7d6e5f-4a3b-4c2d-8e1f-0a9b8c7d6e5f",
  journal: "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70",
  apiKey: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  kycSubmission: "0b6f3c2a-9d1e-4f5a-8b7c-6d5e4f3a2b1c",
} as const;
