// Every public REST operation, gathered from the areas that declare them (lib/<area>/operations.ts),
// in the order the OpenAPI document lists them. tests/unit/openapi.test.ts fails when a route file
// under app/ has no record here, a record has no route file, or a route does not bind its record.
import { deliverableOperations } from "@/lib/deliverables/operations";
import { signingOperations } from "@/lib/esign/operations";
import type { Operation } from "@/lib/openapi/types";
import { serviceOperations } from "@/lib/server/operations";
import { templateOperations } from "@/lib/templates/operations";
import { webhookOperations } from "@/lib/webhooks/operations";

export const operationGroups = { deliverableOperations, templateOperations, signingOperations, webhookOperations, serviceOperations };

export const operations: Operation[] = Object.values(operationGroups).flatMap((group) => Object.values(group));
