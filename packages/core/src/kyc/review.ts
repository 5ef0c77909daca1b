/**
 * The reviewer back office (docs/kyc.md#reviewer-back-office; the dashboard stats of
 * docs/product/kyc.md#data, the statuses of docs/product/kyc.md#submission-statuses, the calls of
 * docs/product/kyc.md#calls), one module per job: the list and its filters (review-list), the stat
 * cards (review-stats), one submission in full (review-detail), decisions, Request Info and
 * resubmission (review-decisions), the approval guard and bulk risk summary (review-risk), Export
 * Report (review-export), and the inputs and transition rules (review-model, browser-safe). Linked
 * submissions and their re-scoring live with the risk engine (risk/links.ts).
 */
export { listSubmissions } from "./review-list";
export { dashboardStats } from "./review-stats";
export { submissionDetail, detailOf } from "./review-detail";
export { bulkUpdate, decide, dismissAlert, requestInfo, resubmit, type Reviewer } from "./review-decisions";
export { bulkRisk, riskCheck } from "./review-risk";
export { exportSubmissions, KYC_EXPORT_MAX_ROWS } from "./review-export";
