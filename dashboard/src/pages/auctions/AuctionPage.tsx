import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { Auction, Bid } from "@payments-backend/sdk";
import type { ReactNode } from "react";
import { Link, useParams } from "react-router";
import { CopyField } from "../../components/CopyField.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { type Column, RecordList } from "../../components/RecordList.tsx";
import { StatusBadge } from "../wallets/StatusBadge.tsx";
import { AuctionActions } from "./AuctionActions.tsx";
import { type LiveMode, useLiveAuction } from "./live.ts";

const BID_COLOURS: Record<Bid["status"], string> = {
  pending: "gray",
  placed: "green",
  outbid: "yellow",
  refused: "red",
  expired: "gray",
  won: "teal",
  failed: "red",
};

const LIVE_TEXT: Record<LiveMode, string> = {
  connecting: "Connecting…",
  stream: "Live",
  polling: "Refreshing every 5 s",
};

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{children}</Text>
    </div>
  );
}

const BID_COLUMNS: Column<Bid>[] = [
  {
    header: "Bidder",
    place: "title",
    cell: (bid) => (
      <>
        {bid.shopper.phone_or_email}
        <Text size="xs" c="dimmed">
          <LocalTime value={bid.created_at} />
        </Text>
      </>
    ),
  },
  { header: "Amount", cell: (bid) => <Money amount={bid.amount} currency={bid.currency} /> },
  {
    header: "Status",
    place: "status",
    cell: (bid) => (
      <>
        <StatusBadge color={BID_COLOURS[bid.status]}>{bid.status}</StatusBadge>
        {bid.reason && (
          <Text size="xs" c="dimmed">
            {bid.reason}
          </Text>
        )}
      </>
    ),
  },
];

function BidsTable({ auction }: { auction: Auction }) {
  if (auction.bids.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="md">
        No bids yet
      </Text>
    );
  }
  // Newest first: the bid that just came in is the first row.
  return (
    <RecordList
      rows={[...auction.bids].reverse()}
      columns={BID_COLUMNS}
      rowKey={(bid) => bid.id}
      cardLabel={(bid) => `Bid ${bid.id}`}
      caption="Bids, newest first"
      minWidth={320}
    />
  );
}

function AuctionView({
  auction,
  mode,
  setDeleting,
}: {
  auction: Auction;
  mode: LiveMode;
  setDeleting: (deleting: boolean) => void;
}) {
  const publicUrl = `${window.location.origin}/a/${encodeURIComponent(auction.id)}`;
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={1}>{auction.name}</Title>
          <StatusBadge color={auction.expired ? "gray" : "green"}>
            {auction.expired ? "ended" : "open"}
          </StatusBadge>
        </Group>
        <AuctionActions auction={auction} setDeleting={setDeleting} />
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Starting amount">
          <Money amount={auction.amount} currency={auction.currency} />
        </Figure>
        <Figure label="Standing bid">
          {auction.current_amount === null ? (
            "none yet"
          ) : (
            <Money amount={auction.current_amount} currency={auction.currency} />
          )}
        </Figure>
        <Figure label={auction.expired ? "Ended" : "Ends"}>
          <LocalTime value={auction.ends_at} />
        </Figure>
        <Figure label="Views">{auction.views}</Figure>
      </SimpleGrid>
      <Stack gap={4}>
        <CopyField label="Public page" value={publicUrl} description="Where shoppers sign in and bid" />
        <Anchor href={publicUrl} target="_blank" rel="noreferrer" size="sm">
          Open the public page
        </Anchor>
      </Stack>
      <Paper withBorder p="md" component="section" aria-labelledby="bids-title">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h4" id="bids-title">
              Bids
            </Title>
            {!auction.expired && (
              <Text size="sm" c="dimmed" role="status">
                {LIVE_TEXT[mode]}
              </Text>
            )}
          </Group>
          <BidsTable auction={auction} />
        </Stack>
      </Paper>
    </Stack>
  );
}

export function AuctionPage() {
  const { auctionId = "" } = useParams();
  const { auction, mode, setDeleting } = useLiveAuction(auctionId);
  return (
    <Stack gap="md">
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← All auctions
      </Anchor>
      <PageState query={auction}>
        {(data: Auction) => <AuctionView auction={data} mode={mode} setDeleting={setDeleting} />}
      </PageState>
    </Stack>
  );
}
