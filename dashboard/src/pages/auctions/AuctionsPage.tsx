import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { Auction } from "@payments-backend/sdk";
import { Link } from "react-router";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { StatusBadge } from "../wallets/StatusBadge.tsx";
import { CreateAuctionForm } from "./CreateAuctionForm.tsx";
import { useAuctions } from "./queries.ts";

function AuctionCard({ auction }: { auction: Auction }) {
  return (
    <Paper withBorder p="md" component="article" aria-label={`Auction ${auction.name}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Anchor component={Link} to={auction.id} fw={600}>
            {auction.name}
          </Anchor>
          <StatusBadge color={auction.expired ? "gray" : "green"}>
            {auction.expired ? "ended" : "open"}
          </StatusBadge>
        </Group>
        <Text size="sm">
          {auction.current_amount === null ? "Starts at " : "Standing bid "}
          <Money amount={auction.current_amount ?? auction.amount} currency={auction.currency} /> ·{" "}
          {auction.bids.length} {auction.bids.length === 1 ? "bid" : "bids"}
        </Text>
        <Text size="sm" c="dimmed">
          {auction.expired ? "Ended" : "Ends"} <LocalTime value={auction.ends_at} />
        </Text>
      </Stack>
    </Paper>
  );
}

export function AuctionsPage() {
  const auctions = useAuctions();
  return (
    <Stack gap="lg">
      <Title order={1}>Auctions</Title>
      <CreateAuctionForm />
      <PageState query={auctions} empty="No auctions yet">
        {(list: Auction[]) => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {list.map((auction) => (
              <AuctionCard key={auction.id} auction={auction} />
            ))}
          </SimpleGrid>
        )}
      </PageState>
    </Stack>
  );
}
