/** Key formats of the auth domain; nothing else builds these keys. */
export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: "PROFILE" });
export const emailKey = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: "EMAIL" });
/** All users, newest first, for admin listings. */
export const usersIndex = (createdAt: string, userId: string) => ({ gsi1pk: "USERS", gsi1sk: `${createdAt}#${userId}` });
