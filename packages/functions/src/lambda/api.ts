import { handle } from "hono/aws-lambda";
import { createApp } from "../app";
import { lambdaContext } from "./context";

/** Buffered API: every route of the Hono app behind CloudFront's /api/*, /v1/*, /health. */
export const handler = handle(createApp(await lambdaContext()));
