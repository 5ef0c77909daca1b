export * from "./table";
export * from "./buckets";
export * from "./routes";
export * from "./schedules";
