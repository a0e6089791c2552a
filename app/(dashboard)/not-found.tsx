import { NotFoundView } from "@/components/not-found-view";

// notFound() in a dashboard page: the message inside the dashboard's frame, tabs still there.
export default function DashboardNotFound() {
  return <NotFoundView />;
}
