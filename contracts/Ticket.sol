// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A small contract the EVM adapter tests call on anvil: a payment's trigger mints tickets.
contract Ticket {
    mapping(address => uint256) public minted;

    event Minted(address indexed to, uint256 amount, string memo);

    function mint(address to, uint256 amount, string calldata memo) external payable {
        require(amount > 0, "amount must be positive");
        require(amount <= 100, "too many tickets");
        minted[to] += amount;
        emit Minted(to, amount, memo);
    }
}
