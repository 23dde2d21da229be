import { Tooltip } from "@mantine/core";

/**
 * An instant in the viewer's locale and time zone, with the zone written (a time without one is
 * ambiguous across a team); the exact UTC time on hover.
 */
export function LocalTime({
  value,
  dateOnly = false,
}: {
  value: string | null | undefined;
  dateOnly?: boolean;
}) {
  if (!value) return <span>—</span>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  const text = dateOnly
    ? date.toLocaleDateString(undefined, { dateStyle: "medium" })
    : date.toLocaleString(undefined, {
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        timeZoneName: "short",
      });
  return (
    <Tooltip label={date.toISOString()} withArrow>
      <time dateTime={date.toISOString()}>{text}</time>
    </Tooltip>
  );
}
