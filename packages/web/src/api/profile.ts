import type { HttpClient, RequestOptions } from "./client";
import { unwrapData } from "./envelope";
import type { ApiReply, ApiRequestBody } from "./schema";

export type UserProfile = ApiReply<"/api/v1/users/profile", "get">["data"];

/** The fields a user may change (role never); omitted fields stay as they are. */
export type ProfileChanges = ApiRequestBody<"/api/v1/users/profile", "put">;

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
  };
}
