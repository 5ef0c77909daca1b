import type { HttpClient, RequestOptions } from "./client";
import { unwrapData } from "./envelope";
import type { ApiReply, ApiRequestBody } from "./schema";

export type UserProfile = ApiReply<"/api/v1/users/profile", "get">["data"];

/** The fields a user may change (role never); omitted fields stay as they are. */
export type ProfileChanges = ApiRequestBody<"/api/v1/users/profile", "put">;

type EmailConfirmationBody = ApiRequestBody<"/api/v1/users/email-confirmation", "post">;

/** A reply that says what happened (its message) with the profile as it now is. */
export interface ProfileMessage {
  message: string;
  user: UserProfile;
}

function messageReply(body: unknown): ProfileMessage {
  const message =
    typeof body === "object" && body !== null && "message" in body && typeof body.message === "string"
      ? body.message
      : "";
  return { message, user: unwrapData<UserProfile>(body) };
}

export function profileEndpoints(http: HttpClient) {
  return {
    /** GET /api/v1/users/profile -> {data: user} */
    async getProfile(): Promise<UserProfile> {
      return unwrapData<UserProfile>(await http.authCall<unknown>("GET", "/api/v1/users/profile"));
    },
    /** PUT /api/v1/users/profile */
    async updateProfile(changes: ProfileChanges, options: RequestOptions = {}): Promise<UserProfile> {
      const reply = await http.authCall<unknown>("PUT", "/api/v1/users/profile", { ...options, body: changes });
      return unwrapData<UserProfile>(reply);
    },
    /**
     * PUT /api/v1/users/profile {email, current_password} -> 202 with the same message whether or
     * not the address is taken; the email changes only once the link sent to it is used.
     */
    async changeEmail(email: string, currentPassword: string, options: RequestOptions = {}): Promise<ProfileMessage> {
      const reply = await http.authCall<unknown>("PUT", "/api/v1/users/profile", {
        ...options,
        body: { email, current_password: currentPassword } satisfies ProfileChanges,
      });
      return messageReply(reply);
    },
    /** POST /api/v1/users/email-confirmation {token}: no sign-in needed, the link's token is the proof. */
    async confirmEmail(token: string, options: RequestOptions = {}): Promise<ProfileMessage> {
      const reply = await http.publicCall<unknown>("POST", "/api/v1/users/email-confirmation", {
        ...options,
        body: { token } satisfies EmailConfirmationBody,
        serverMessages: true,
      });
      return messageReply(reply);
    },
  };
}
