import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CaseUpdateInput, ExportInput } from "@fintech/core/compliance/model";
import { useSession } from "../session/hooks";
import { complianceApi, type Period } from "./api";

/** Every compliance read is keyed by the signed-in user, so two sessions' data never mix. */
export const complianceKeys = {
  all: (userId: string) => ["compliance", userId] as const,
  report: (userId: string, report: string, query: Period & { rate?: string }) =>
    ["compliance", userId, report, query] as const,
};

/** The signed-in user and whether the reports are theirs to see (the server checks the role again). */
export function useComplianceViewer(): { userId: string; isAdmin: boolean } {
  const user = useSession()?.user ?? null;
  return { userId: user?.id ?? "signed-out", isAdmin: user?.role === "admin" };
}

export function useCtr(period: Period) {
  const { userId } = useComplianceViewer();
  return useQuery({
    queryKey: complianceKeys.report(userId, "ctr", period),
    queryFn: ({ signal }) => complianceApi.ctr(period, signal),
    retry: false,
  });
}

export function useSar(period: Period) {
  const { userId } = useComplianceViewer();
  return useQuery({
    queryKey: complianceKeys.report(userId, "sar", period),
    queryFn: ({ signal }) => complianceApi.sar(period, signal),
    retry: false,
  });
}

export function useTax(period: Period, rate: string) {
  const { userId } = useComplianceViewer();
  return useQuery({
    queryKey: complianceKeys.report(userId, "tax", { ...period, rate }),
    queryFn: ({ signal }) => complianceApi.tax({ ...period, rate }, signal),
    retry: false,
  });
}

export function useUpdateCase() {
  const { userId } = useComplianceViewer();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: CaseUpdateInput }) => complianceApi.updateCase(id, input),
    // A 409 means someone else changed the case: the list is asked again either way.
    onSettled: () => client.invalidateQueries({ queryKey: [...complianceKeys.all(userId), "sar"] }),
  });
}

export function useExport() {
  return useMutation({ mutationFn: (input: ExportInput) => complianceApi.exportReport(input) });
}
