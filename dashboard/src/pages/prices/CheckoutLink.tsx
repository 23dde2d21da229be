import { Anchor, Box, Stack, Text } from "@mantine/core";
import { QRCodeSVG } from "qrcode.react";
import { CopyField } from "../../components/CopyField.tsx";

/** The hosted checkout's address: where shoppers pay this price. */
export function checkoutUrl(priceId: string): string {
  return new URL(`/checkout/${encodeURIComponent(priceId)}`, window.location.origin).toString();
}

/** The checkout link to copy or open, and its QR code for a phone to scan. */
export function CheckoutLink({ priceId, expired }: { priceId: string; expired: boolean }) {
  const url = checkoutUrl(priceId);
  return (
    <Stack gap="sm">
      <CopyField label="Checkout link" value={url} />
      <Anchor href={url} target="_blank" rel="noreferrer" size="sm">
        Open the checkout
      </Anchor>
      {expired && (
        <Text size="sm" c="dimmed">
          This price has expired: the checkout answers "No longer available".
        </Text>
      )}
      <Box bg="white" p="sm" w="fit-content" style={{ borderRadius: 8 }}>
        <QRCodeSVG value={url} size={176} title="QR code of the checkout link" role="img" />
      </Box>
    </Stack>
  );
}
