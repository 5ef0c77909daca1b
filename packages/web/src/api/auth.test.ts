import { describe, expect, it } from "vitest";
import { createApi } from "./api";
import { parseAuthReply } from "./auth";
import { createHttpClient } from "./client";
import { ApiError } from "./errors";
import { fakeFetch, fakeTokens, json } from "./testing";

const serverUser = { id: "u-1", email: "ada@example.com", first_name: "Ada", last_name: "Lovelace", role: "user" };
const sessionUser = { id: "u-1", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", role: "user" };

describe("parseAuthReply", () => {
  it("reads a nested user", () => {
    expect(parseAuthReply({ data: { token: "t", user: serverUser } })).toEqual({ token: "t", user: sessionUser });
  });

  it("reads flat user fields", () => {
    expect(parseAuthReply({ data: { token: "t", ...serverUser } })).toEqual({ token: "t", user: sessionUser });
  });

  it("defaults missing names and role", () => {
    expect(parseAuthReply({ data: { token: "t", user: { id: 7, email: "x@y.z" } } }).user).toEqual({
      id: "7",
      email: "x@y.z",
      firstName: "",
      lastName: "",
      role: "user",
    });
  });

  it.each([
    ["no body", null],
    ["no data", { token: "t", user: serverUser }],
    ["no token", { data: { user: serverUser } }],
    ["empty token", { data: { token: "", user: serverUser } }],
    ["no user", { data: { token: "t" } }],
    ["user without email", { data: { token: "t", user: { id: "u" } } }],
  ])("rejects %s with 'Invalid response format'", (_, body) => {
    expect(() => parseAuthReply(body)).toThrow(new ApiError("Invalid response format", "invalid-response"));
  });
});

describe("login and register", () => {
  const api = (reply: Parameters<typeof fakeFetch>[0]) => {
    const fake = fakeFetch(reply);
    return {
      api: createApi(
        createHttpClient({ baseUrl: "https://api.test", fetch: fake.fetch, credentials: fakeTokens(null).source }),
      ),
      calls: fake.calls,
    };
  };

  it("passes the server's message through", async () => {
    const { api: client } = api(() => json(401, { message: "Invalid email or password", code: "invalid_credentials" }));
    await expect(client.auth.login({ email: "a@b.co", password: "wrong-password" })).rejects.toMatchObject({
      message: "Invalid email or password",
      kind: "server-message",
      status: 401,
    });
  });

  it("falls back to the status when the reply has no message", async () => {
    const { api: client } = api(() => new Response("", { status: 500 }));
    await expect(
      client.auth.register({
        email: "a@b.co",
        password: "long-enough",
        first_name: "A",
        last_name: "B",
        phone: null,
        date_of_birth: null,
      }),
    ).rejects.toMatchObject({ message: "HTTP error! status: 500", kind: "http-status" });
  });

  it("posts the registration body as given", async () => {
    const { api: client, calls } = api(() => json(201, { data: { token: "t", user: serverUser } }));
    const body = {
      email: "ada@example.com",
      password: "long-enough",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: null,
      date_of_birth: "1990-05-01T00:00:00.000Z",
    };
    await expect(client.auth.register(body)).resolves.toEqual({ token: "t", user: sessionUser });
    expect(calls[0]).toMatchObject({ url: "https://api.test/api/v1/auth/register", method: "POST", body });
  });
});
